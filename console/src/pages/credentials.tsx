// Credentials: the merchant's or partner's Client IDs. A new one's Client Secret is shown once, here, with a copy
// button; rolling one shows its new secret once and keeps the old one working for the overlap chosen (up to 24
// hours); revoking one ends it and its tokens.
import { useState } from 'preact/hooks';
import { type Credential, createCredential, eachCredential, revokeCredential, rollCredential } from '../api/console-api.js';
import { useConsole } from '../context.js';
import { useAction } from '../ui/action.js';
import { Page, Section } from '../ui/page.js';
import { PagerFooter, pageSize, usePager } from '../ui/pager.js';
import { ProblemNote } from '../ui/problem.js';
import { SecretOnce } from '../ui/secret.js';
import { Time } from '../ui/values.js';

const overlaps = [
  { seconds: 0, label: 'None: the old secret stops now' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 6 * 3600, label: '6 hours' },
  { seconds: 12 * 3600, label: '12 hours' },
  { seconds: 24 * 3600, label: '24 hours' },
];

interface Shown {
  clientId: string;
  clientSecret: string;
  note: string;
}

export function CredentialsPage() {
  const { session } = useConsole();
  const pager = usePager(() => eachCredential(pageSize), []);
  const [shown, setShown] = useState<Shown | undefined>();
  const create = useAction(createCredential);

  const onCreate = async () => {
    const made = (await create.run())?.value;
    if (made) {
      setShown({ clientId: made.clientId, clientSecret: made.clientSecret, note: 'Your new credential.' });
      pager.reload();
    }
  };

  const tokenPath = session.owner.kind === 'partner' ? 'POST /finance/v1/generate-token' : 'POST /oauth/token';
  return (
    <Page
      title="Credentials"
      actions={
        <button type="button" onClick={onCreate} disabled={create.busy}>
          Create a credential
        </button>
      }
    >
      <p class="lead">
        A Client ID and Client Secret get access tokens at <code>{tokenPath}</code>. The secret is shown once, when it is made; the service
        keeps only a hash of it.
      </p>
      {create.error ? <ProblemNote error={create.error} /> : null}
      {shown ? (
        <div class="panel">
          <p>
            {shown.note} Client ID <code data-testid="new-client-id">{shown.clientId}</code>
          </p>
          <SecretOnce label="Client Secret" value={shown.clientSecret} onDone={() => setShown(undefined)} />
        </div>
      ) : null}
      <Section title="Active credentials" id="credentials-list">
        <table>
          <thead>
            <tr>
              <th scope="col">Client ID</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Rolled</th>
              <th scope="col">Old secret works until</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {pager.items.map((credential) => (
              <CredentialRow
                key={credential.clientId}
                credential={credential}
                onRolled={(clientId, clientSecret, until) => {
                  setShown({
                    clientId,
                    clientSecret,
                    note: until ? 'The new secret of' : 'The new secret (the old one no longer works) of',
                  });
                  pager.reload();
                }}
                onRevoked={pager.reload}
              />
            ))}
          </tbody>
        </table>
        <PagerFooter pager={pager} noun={['credential', 'credentials']} />
      </Section>
    </Page>
  );
}

function CredentialRow({
  credential,
  onRolled,
  onRevoked,
}: {
  credential: Credential;
  onRolled: (clientId: string, secret: string, until: string | null) => void;
  onRevoked: () => void;
}) {
  const [mode, setMode] = useState<'idle' | 'roll' | 'revoke'>('idle');
  const [overlap, setOverlap] = useState(3600);
  const roll = useAction(rollCredential);
  const revoke = useAction(revokeCredential);
  const id = credential.clientId;
  return (
    <tr>
      <td>
        <code>{id}</code>
      </td>
      <td>
        <Time iso={credential.createdAt} />
      </td>
      <td>{credential.lastUsedAt ? <Time iso={credential.lastUsedAt} /> : <span class="muted">Never</span>}</td>
      <td>
        <Time iso={credential.rolledAt} />
      </td>
      <td>
        <Time iso={credential.previousSecretExpiresAt} />
      </td>
      <td class="row-actions">
        {mode === 'idle' ? (
          <>
            <button type="button" onClick={() => setMode('roll')} aria-label={`Roll ${id}`}>
              Roll
            </button>
            <button type="button" class="danger" onClick={() => setMode('revoke')} aria-label={`Revoke ${id}`}>
              Revoke
            </button>
          </>
        ) : null}
        {mode === 'roll' ? (
          <form
            class="inline-form"
            onSubmit={async (e) => {
              e.preventDefault();
              const rolled = (await roll.run(id, overlap))?.value;
              if (rolled) {
                setMode('idle');
                onRolled(rolled.clientId, rolled.clientSecret, rolled.previousSecretExpiresAt);
              }
            }}
          >
            <label for={`overlap-${id}`}>Keep the old secret working for</label>
            <select id={`overlap-${id}`} value={overlap} onChange={(e) => setOverlap(Number(e.currentTarget.value))}>
              {overlaps.map((o) => (
                <option key={o.seconds} value={o.seconds}>
                  {o.label}
                </option>
              ))}
            </select>
            <button type="submit" disabled={roll.busy}>
              Roll the secret
            </button>
            <button type="button" onClick={() => setMode('idle')}>
              Cancel
            </button>
            {roll.error ? <ProblemNote error={roll.error} /> : null}
          </form>
        ) : null}
        {mode === 'revoke' ? (
          <div class="inline-form">
            <span>Revoke it? Its secrets and tokens stop working at once.</span>
            <button
              type="button"
              class="danger"
              disabled={revoke.busy}
              onClick={async () => {
                if (await revoke.run(id)) onRevoked();
              }}
            >
              Revoke {id}
            </button>
            <button type="button" onClick={() => setMode('idle')}>
              Cancel
            </button>
            {revoke.error ? <ProblemNote error={revoke.error} /> : null}
          </div>
        ) : null}
      </td>
    </tr>
  );
}
