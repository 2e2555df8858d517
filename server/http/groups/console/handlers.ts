// The console group (openapi/console/): one handler per operation of generated/console/routes.ts. The caller is a
// console session (http/console-session.ts resolved it and checked its CSRF token), acting for its merchant or
// partner; the sign-in alone has no session yet.
import type { OperationId } from '../../../../generated/console/routes.js';
import type { operations } from '../../../../generated/console/schema.js';
import type { Services } from '../../../domain/services.js';
import { clearedCookie, sessionCookie, type ConsoleContext, type ConsoleSignInContext } from '../../console-session.js';
import type { GroupHandlers, OperationHandler } from '../../operation-handler.js';
import { created, issued, noContent, ok } from '../../results.js';

export type ConsoleHandlers = GroupHandlers<operations, Exclude<OperationId, 'signInToConsole'>, ConsoleContext> & {
  signInToConsole: OperationHandler<operations['signInToConsole'], ConsoleSignInContext>;
};

export function consoleHandlers(s: Services): ConsoleHandlers {
  const sessions = s.consoleSessions;
  return {
    signInToConsole: async ({ body, context }) => {
      const { token, session } = await sessions.signIn(body.email, body.password, context.ip);
      const answer = created({ body: session }, '/console/api/session');
      return { ...answer, headers: { ...answer.headers, 'Set-Cookie': sessionCookie(token, context.cookie) } };
    },
    getConsoleSession: async ({ context }) => ok(await sessions.view(context.session)),
    signOutOfConsole: async ({ context }) => {
      await sessions.end(context.session);
      return { ...noContent(), headers: { 'Set-Cookie': clearedCookie(context.cookie) } };
    },
    createConsoleAccessToken: async ({ context }) => issued(await sessions.mintToken(context.session)),

    listConsoleCredentials: async ({ query, context }) => ok(await s.consoleCredentials.list(context.session.owner, query)),
    createConsoleCredential: async ({ context }) =>
      created({ body: await s.consoleCredentials.create(context.session.owner) }, (c) => `/console/api/credentials/${c.clientId}`),
    rollConsoleCredential: async ({ params, body, context }) =>
      ok(await s.consoleCredentials.roll(context.session.owner, params.clientId, body.overlapSeconds)),
    revokeConsoleCredential: async ({ params, context }) => {
      await s.consoleCredentials.revoke(context.session.owner, params.clientId);
      return noContent();
    },

    listRequestLogs: async ({ query, context }) => ok(await s.requestLogs.list(context.session.owner, query)),
  };
}
