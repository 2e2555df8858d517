// The sandbox's test helpers in one place (the sandbox environment only): return, fail or release a payout; settle or
// return a transfer; decide a verification; for a partner, return a payment. Each shows the event it caused.
import type { BankingComponents } from '@payout-service/client';
import type { ComponentChildren } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { verificationDecisions } from '../api/enums.js';
import { merchantSimulations } from '../api/simulations.js';
import { useConsole } from '../context.js';
import { useAction } from '../ui/action.js';
import { Page, Section } from '../ui/page.js';
import { ProblemNote } from '../ui/problem.js';
import { SimulationResult } from '../ui/simulation-result.js';
import { TransferSimulations } from './banking.js';
import { PaymentSimulations } from './partner.js';
import { PayoutSimulations } from './payouts.js';

type Decision = BankingComponents['schemas']['VerificationDecisionSimulationRequest']['status'];
type ReasonCode = BankingComponents['schemas']['VerificationReasonCode'];

/** A form that asks for an object's id, then shows that object's helpers. */
function Pick({
  label,
  id,
  pattern,
  children,
}: {
  label: string;
  id: string;
  pattern: string;
  children: (value: string) => ComponentChildren;
}) {
  const [draft, setDraft] = useState('');
  const [value, setValue] = useState('');
  return (
    <>
      <form
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          setValue(draft.trim());
        }}
      >
        <label for={id}>{label}</label>
        <input id={id} required pattern={pattern} size={32} value={draft} onInput={(e) => setDraft(e.currentTarget.value)} />
        <button type="submit">Choose</button>
      </form>
      {value ? children(value) : null}
    </>
  );
}

export function SandboxPage() {
  const { session, clients } = useConsole();
  if (session.environment !== 'sandbox') {
    return (
      <Page title="Sandbox">
        <p>The test helpers exist only in the sandbox environment.</p>
      </Page>
    );
  }
  return (
    <Page title="Sandbox">
      <p class="lead">
        Move your test objects on demand. Each helper answers the object as it is now and shows the event it caused, as your webhooks
        receive it.
      </p>
      {clients.kind === 'merchant' ? (
        <>
          <Section title="A payout" id="sandbox-payout">
            <Pick label="Payout reference" id="sandbox-payout-reference" pattern="po_[0-9a-z]{26}">
              {(reference) => <PayoutSimulations key={reference} reference={reference} />}
            </Pick>
          </Section>
          <Section title="A transfer" id="sandbox-transfer">
            <Pick label="Transfer id" id="sandbox-transfer-id" pattern="[0-9]+">
              {(id) => <TransferSimulations key={id} transferId={Number(id)} />}
            </Pick>
          </Section>
          <Section title="A verification" id="sandbox-verification">
            <Pick label="Verification id" id="sandbox-verification-id" pattern="[0-9]+">
              {(id) => <VerificationSimulation key={id} verificationId={Number(id)} />}
            </Pick>
          </Section>
        </>
      ) : (
        <Section title="A payment" id="sandbox-payment">
          <Pick label="Payment id" id="sandbox-payment-id" pattern="[0-9]+">
            {(id) => <PaymentSimulations key={id} paymentId={Number(id)} />}
          </Pick>
        </Section>
      )}
    </Page>
  );
}

const reasonCodes: ReasonCode[] = [
  'tax_id_mismatch',
  'name_mismatch',
  'address_unverified',
  'document_unverified',
  'watchlist_potential_match',
];

function VerificationSimulation({ verificationId }: { verificationId: number }) {
  const { clients } = useConsole();
  const simulations = useMemo(() => (clients.kind === 'merchant' ? merchantSimulations(clients) : undefined), [clients]);
  const [decision, setDecision] = useState<Decision>('approved');
  const [reason, setReason] = useState<ReasonCode>('tax_id_mismatch');
  const action = useAction(() => simulations!.decideVerification(verificationId, decision, reason));
  if (!simulations) return null;
  return (
    <div class="simulations">
      <form
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void action.run();
        }}
      >
        <label for="verification-decision">Decision</label>
        <select id="verification-decision" value={decision} onChange={(e) => setDecision(e.currentTarget.value as Decision)}>
          {verificationDecisions.map((d) => (
            <option key={d} value={d}>
              {d}
            </option>
          ))}
        </select>
        {decision !== 'approved' ? (
          <>
            <label for="verification-reason">Reason</label>
            <select id="verification-reason" value={reason} onChange={(e) => setReason(e.currentTarget.value as ReasonCode)}>
              {reasonCodes.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </>
        ) : null}
        <button type="submit" disabled={action.busy}>
          Decide the verification
        </button>
      </form>
      {action.busy ? <p role="status">Simulating…</p> : null}
      {action.error ? <ProblemNote error={action.error} /> : null}
      {action.result ? (
        <SimulationResult summary={`The verification is now ${action.result.result.status}.`} event={action.result.event} />
      ) : null}
    </div>
  );
}
