// Sign-in: a console user's email address and password start a session (the HttpOnly cookie the service sets).
import { useState } from 'preact/hooks';
import { type Session, signIn } from '../api/console-api.js';
import { useAction } from '../ui/action.js';
import { Page } from '../ui/page.js';
import { ProblemNote } from '../ui/problem.js';

export function SignInPage({ onSignedIn, notice }: { onSignedIn: (session: Session) => void; notice?: string }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction(signIn);
  const submit = async (event: Event) => {
    event.preventDefault();
    const done = await action.run(email, password);
    if (done) onSignedIn(done.value);
  };
  return (
    <div class="sign-in">
      <Page title="Sign in to the console">
        {notice ? (
          <p class="notice" role="status">
            {notice}
          </p>
        ) : null}
        <form onSubmit={submit} class="form" aria-describedby="sign-in-help">
          <p id="sign-in-help" class="muted">
            Use the console user your merchant or partner account was given.
          </p>
          <label for="email">Email address</label>
          <input id="email" type="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
          <label for="password">Password</label>
          <input
            id="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
          <button type="submit" disabled={action.busy}>
            {action.busy ? 'Signing in…' : 'Sign in'}
          </button>
          {action.error ? <ProblemNote error={action.error} /> : null}
        </form>
      </Page>
    </div>
  );
}
