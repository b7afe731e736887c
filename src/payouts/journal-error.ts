/**
 * The error every journal throws: its own module, imported by the journals and by the state machine
 * (./machine's `checkMove` throws it), so that neither imports the other for it.
 * @module
 */

/** A problem with a journal: locked by another process, corrupt, or of another batch. */
export class PayoutJournalError extends Error {
  override name = 'PayoutJournalError';
  /** `locked`, `corrupt`, `other_batch`, `closed`, or `illegal_move` (a write the state machine does not allow; see ./machine). */
  readonly reason: 'locked' | 'corrupt' | 'other_batch' | 'closed' | 'illegal_move';
  constructor(reason: PayoutJournalError['reason'], message: string) {
    super(message);
    this.reason = reason;
  }
}
