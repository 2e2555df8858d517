// A secret the service shows once (a Client Secret, a webhook signing secret): shown here with a copy button, kept
// only in this component's memory, so it is gone once the reader dismisses it, leaves the page or reloads.
import { useState } from 'preact/hooks';

export function SecretOnce({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  const [copied, setCopied] = useState<'copied' | 'failed' | undefined>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
  };
  const id = `secret-${label.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <section class="secret" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>{label}</h3>
      <p>
        This is the only time it is shown: copy it now and keep it somewhere safe. It cannot be shown again; roll or rotate it to get a new
        one.
      </p>
      <div class="secret-row">
        <label for={id} class="visually-hidden">
          {label}
        </label>
        <input id={id} class="secret-value" readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      <p role="status" class="muted">
        {copied === 'copied'
          ? 'Copied to the clipboard.'
          : copied === 'failed'
            ? 'The browser refused the clipboard: select the text and copy it.'
            : ''}
      </p>
      <button type="button" onClick={onDone}>
        I have stored it
      </button>
    </section>
  );
}
