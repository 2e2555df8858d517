// Structured logs (pino, JSON lines). Credentials never reach them: headers and body fields that carry
// secrets or tokens are censored wherever they appear.
import pino, { type Logger } from 'pino';

export const redactedPaths = [
  'req.headers.authorization',
  '*.headers.authorization',
  '*.client_secret',
  '*.clientSecret',
  '*.access_token',
  '*.secret',
  'clientSecret',
  'client_secret',
  'secret',
  'access_token',
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: redactedPaths, censor: '[redacted]' }, base: { service: 'payout-service' } }, destination);
}
