/**
 * Journals: where each reference's state is kept, so that a run started again after a crash, a kill
 * or a reboot continues where it stopped. A record is durable once `put` resolves: the runner writes
 * `submitted` before it sends a request that moves money, and the answer after.
 * @module
 */
import { PayoutJournalError } from './journal-error';
import { checkMove } from './machine';
import type { PayoutRecord, PayoutState } from './types';

/** Where a batch's records live. One batch per journal. */
export interface PayoutJournal {
  /**
   * Opens the journal for `batchId` (taking its lock, if it has one) and yields the records it holds,
   * the latest of each reference. A journal already used for another batch is refused.
   */
  open(batchId: string): Promise<AsyncIterable<PayoutRecord> | Iterable<PayoutRecord>>;
  /** The latest record of `reference`, if any (after `open`). */
  get(reference: string): Promise<PayoutRecord | undefined>;
  /**
   * Records `record` (replacing the reference's previous one); durable when it resolves. Refuses, with a
   * {@link PayoutJournalError} (`illegal_move`), a move the state machine does not allow (./machine's `checkMove`).
   */
  put(record: PayoutRecord): Promise<void>;
  /** Flushes and releases the journal (its lock). */
  close(): Promise<void>;
}

// The error lives in a module of its own, which the state machine imports too (no import circle).
export { PayoutJournalError } from './journal-error';

/**
 * A journal in memory: survives nothing but the process. For tests, and for batches whose rerun
 * safety comes from elsewhere (the keys alone still make a rerun of the same batch id safe).
 */
export class MemoryJournal implements PayoutJournal {
  /** Each reference's latest record, as JSON (a copy that costs one stringify, not a structured clone), and its state. */
  readonly #records = new Map<string, string>();
  readonly #states = new Map<string, PayoutState>();
  #batchId: string | undefined;

  async open(batchId: string): Promise<Iterable<PayoutRecord>> {
    if (this.#batchId !== undefined && this.#batchId !== batchId) {
      throw new PayoutJournalError('other_batch', `This journal holds batch ${this.#batchId}, not ${batchId}.`);
    }
    this.#batchId = batchId;
    return this.records();
  }

  async get(reference: string): Promise<PayoutRecord | undefined> {
    const record = this.#records.get(reference);
    return record === undefined ? undefined : (JSON.parse(record) as PayoutRecord);
  }

  async put(record: PayoutRecord): Promise<void> {
    checkMove(record.reference, this.#states.get(record.reference), record.state);
    this.#records.set(record.reference, JSON.stringify(record));
    this.#states.set(record.reference, record.state);
  }

  async close(): Promise<void> {}

  /** Every record (copies), for inspection. */
  records(): PayoutRecord[] {
    return [...this.#records.values()].map((r) => JSON.parse(r) as PayoutRecord);
  }
}
