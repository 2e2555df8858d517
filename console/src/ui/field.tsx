// A labelled input of a form, and the form state it edits: one shape for every create form, so each field has its
// label tied to it (axe) and the page keeps what was typed when the service refuses it.
import { useState } from 'preact/hooks';

/** A form's values by field name, and a setter for one. */
export function useFields<T extends Record<string, string>>(initial: T): [T, (name: keyof T, value: string) => void, () => void] {
  const [values, setValues] = useState<T>(initial);
  return [values, (name, value) => setValues((v) => ({ ...v, [name]: value })), () => setValues(initial)];
}

/** What a field may say of its input besides its value. */
interface InputProps {
  type?: 'text' | 'email' | 'tel' | 'number' | 'url';
  required?: boolean;
  placeholder?: string;
  inputMode?: 'numeric' | 'decimal' | 'text';
  step?: string;
  min?: string;
}

export function Field({
  id,
  label,
  value,
  onValue,
  ...input
}: { id: string; label: string; value: string; onValue: (value: string) => void } & InputProps) {
  return (
    <>
      <label for={id}>{label}</label>
      {/* Preact types an input by its type; these attributes suit every type listed. */}
      <input id={id} value={value} onInput={(e) => onValue(e.currentTarget.value)} {...(input as Record<string, unknown>)} />
    </>
  );
}

export function Choice({
  id,
  label,
  value,
  options,
  onValue,
}: {
  id: string;
  label: string;
  value: string;
  options: readonly string[];
  onValue: (value: string) => void;
}) {
  return (
    <>
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onValue(e.currentTarget.value)}>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </>
  );
}

/** An optional text: absent when left empty. */
export const optional = (s: string): string | undefined => (s.trim() === '' ? undefined : s.trim());
