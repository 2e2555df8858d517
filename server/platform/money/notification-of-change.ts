// How a transfer or a payment shows the notification of change its receiving bank sent: one view for the
// three records that carry one (a transfer, a payment, a payment's search record), each typed by its group.
import { isoTimestamp } from '../store/timestamps.js';

/** The NOC columns a transfer or payment row carries (migration 0008). */
interface NocColumns {
  change_code: string | null;
  corrected_data: string | null;
  noc_received_at: number | null;
  updated_at: number;
}

/** `null` until a notification arrives; then its code, the corrected details as received, and when. */
export function notificationOfChangeOf<CorrectedData>(
  row: NocColumns,
): { changeCode: string; correctedData: CorrectedData; receivedOn: string } | null {
  if (row.change_code === null) return null;
  return {
    changeCode: row.change_code,
    correctedData: JSON.parse(row.corrected_data ?? '{}') as CorrectedData,
    receivedOn: isoTimestamp(row.noc_received_at ?? row.updated_at),
  };
}
