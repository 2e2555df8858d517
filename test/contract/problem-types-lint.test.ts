// The problem-type rules of `npm run lint:contract` (scripts/contract/lint-problem-types.ts): the contract as generated keeps
// them, and each rule finds what it is for in a small document made to break it.
import { describe, expect, it } from 'vitest';
import { groups } from '../../generated/index.js';
import { problemTypeFindings } from '../../scripts/contract/lint-problem-types.js';
import { bundles, type Json } from '../support/contract.js';

const root = new URL('../../', import.meta.url).pathname;

/** A one-operation document with the real catalogue, `op` laid over a secured GET that documents 400, 401, 403, 429, 500. */
function documentWith(op: Json, info: Json = {}): Map<string, Json> {
  const problem = bundles.merchant.components.schemas.Problem;
  const responses = Object.fromEntries(['400', '401', '403', '429', '500'].map((s) => [s, { description: s }]));
  return new Map([
    [
      'sample',
      {
        info: { title: 'Sample', ...info },
        security: [{ Bearer: [] }],
        components: { schemas: { Problem: problem } },
        paths: {
          '/things/{id}': {
            get: {
              operationId: 'getThing',
              responses,
              'x-problem-types': ['validation-error', 'unauthorized', 'forbidden', 'rate-limited', 'internal-error'],
              ...op,
            },
          },
        },
      },
    ],
  ]);
}
// Every kind but the sample's own is listed by no operation; those findings are not what these cases test.
const about = (findings: string[]) => findings.filter((f) => !f.startsWith('catalogue:'));

describe('the problem-type rules', () => {
  it('hold for the contract', () => {
    expect(problemTypeFindings(new Map(groups.map((g) => [g, bundles[g]])), root)).toEqual([]);
  });

  it('accept a consistent operation', () => {
    expect(about(problemTypeFindings(documentWith({}), root))).toEqual([]);
  });

  it('ask for a list where there is none, naming the kinds to add', () => {
    const [finding] = about(problemTypeFindings(documentWith({ 'x-problem-types': undefined }), root));
    expect(finding).toContain('add `x-problem-types: [validation-error, unauthorized, forbidden, rate-limited, internal-error]`');
  });

  it('refuse a kind outside the catalogue, an unrouted kind, and a kind whose status is not documented', () => {
    const findings = about(
      problemTypeFindings(
        documentWith({
          'x-problem-types': [
            'validation-error',
            'unauthorized',
            'forbidden',
            'rate-limited',
            'internal-error',
            'teapot',
            'method-not-allowed',
            'not-found',
          ],
        }),
        root,
      ),
    );
    expect(findings).toEqual([
      expect.stringContaining('names teapot, which is not in the catalogue'),
      expect.stringContaining('names method-not-allowed, which answers only requests that match no operation'),
      expect.stringContaining(
        "names not-found (status 404) but the operation documents no 404: add `'404': $ref: '../../shared/responses/NotFound.yaml'`",
      ),
    ]);
  });

  it('refuse a documented status without a kind, a missing implied kind and a promised kind not listed', () => {
    const findings = about(
      problemTypeFindings(
        documentWith({
          description: 'Refused with 422 `https://payouts.example/problems/same-day-limit`.',
          responses: Object.fromEntries(['400', '401', '403', '409', '429', '500'].map((s) => [s, { description: s }])),
          requestBody: { content: {} },
        }),
        root,
      ),
    );
    expect(findings).toEqual([
      expect.stringContaining('documents 409 but x-problem-types names no kind of status 409'),
      expect.stringContaining('lacks malformed-json (it takes a body)'),
      expect.stringContaining('lacks payload-too-large (it takes a body)'),
      expect.stringContaining('lacks unsupported-media-type (it takes a body)'),
      expect.stringContaining('promise problems/same-day-limit'),
    ]);
  });

  it("ask for each operation's own 404 example, refuse one without a 404, and hold it to the catalogue", () => {
    const notFound = bundles.merchant.components.responses.NotFound;
    const withShared404 = documentWith({
      responses: {
        ...documentWith({}).get('sample')!.paths['/things/{id}'].get.responses,
        '404': { $ref: '#/components/responses/NotFound' },
      },
      'x-problem-types': ['validation-error', 'unauthorized', 'forbidden', 'not-found', 'rate-limited', 'internal-error'],
    });
    withShared404.get('sample')!.components.responses = { NotFound: notFound };
    expect(about(problemTypeFindings(withShared404, root))).toEqual([
      expect.stringContaining('its 404 shows the shared example; add `x-not-found: {detail: ...}` beside x-problem-types'),
    ]);
    expect(about(problemTypeFindings(documentWith({ 'x-not-found': { detail: 'No thing 7 exists.' } }), root))).toEqual([
      expect.stringContaining('x-not-found gives the example of a 404 that refers to shared/responses/NotFound.yaml'),
    ]);
    const own404 = structuredClone(notFound);
    own404.content['application/problem+json'].examples.notFound.value.title = 'Not here.';
    const withOwn404 = documentWith({
      responses: { ...documentWith({}).get('sample')!.paths['/things/{id}'].get.responses, '404': own404 },
      'x-problem-types': ['validation-error', 'unauthorized', 'forbidden', 'not-found', 'rate-limited', 'internal-error'],
    });
    expect(about(problemTypeFindings(withOwn404, root))).toEqual([
      expect.stringContaining(
        'getThing (GET /things/{id}, openapi/shared/paths/things_{id}.yaml) 404, example notFound: not-found has status 404',
      ),
    ]);
  });

  it('refuse a kind the document promises that no operation lists, and a kind listed by nothing', () => {
    const findings = problemTypeFindings(
      documentWith({}, { description: 'Debits may answer `https://payouts.example/problems/insufficient-funds`.' }),
      root,
    );
    expect(findings).toContain(
      'sample: info.description promises problems/insufficient-funds, but none of its operations lists it in x-problem-types',
    );
    expect(findings).toContainEqual(expect.stringMatching(/^catalogue: not-found is listed by no operation/));
    expect(findings.filter((f) => f.startsWith('catalogue: method-not-allowed'))).toEqual([]);
  });
});
