// The baseline: bare Express 5 answering a fixed JSON body (a payee as the service returns it), on GET and
// on a POST that parses its JSON body. No token, validation, store or logging: what the framework alone costs.
// With VALIDATED=1 it also answers `GET /v1/payees/{id}` behind express-openapi-validator over the merchant
// document, set up as the service sets it up (server/http/mount-group.ts; the security step accepts any caller):
// what the validator alone costs, the most of bare Express's speed a validated operation can keep.
import express from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import merchantDocument from '../generated/merchant/openapi.json' with { type: 'json' };

const body = {
  id: 1,
  payeeType: 'individual',
  name: 'Maria Gonzalez',
  EmailAddress: 'maria@example.com',
  phoneNumber: null,
  taxId: null,
  idType: null,
  address: { addressLine: '350 Fifth Avenue', state: 'NY', city: 'New York', country: 'US', postalCode: '10118' },
  dateOfBirth: null,
  createdOn: '2026-01-01T00:00:00.000Z',
  updatedOn: '2026-01-01T00:00:00.000Z',
};

const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.get('/fixed', (_req, res) => {
  res.json(body);
});
app.post('/fixed', express.json({ limit: '1mb' }), (_req, res) => {
  res.status(202).json(body);
});
if (process.env.VALIDATED === '1') {
  const schemes = Object.keys(merchantDocument.components.securitySchemes);
  app.use(
    OpenApiValidator.middleware({
      apiSpec: structuredClone(merchantDocument) as never,
      validateApiSpec: false,
      validateRequests: { allErrors: true, allowUnknownQueryParameters: false },
      validateResponses: false,
      validateSecurity: { handlers: Object.fromEntries(schemes.map((scheme) => [scheme, async () => true])) },
      ignoreUndocumented: true,
    }),
  );
  app.get('/v1/payees/:id', (_req, res) => {
    res.json(body);
  });
}
const server = app.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
