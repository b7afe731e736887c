/**
 * The life of one payout, as a pure transition function over an explicit table: a state and an event
 * give the next state and the effects to run (journal writes, requests, lookups, timers). The batch
 * runner and the BullMQ processor are drivers of this table: they run the effects and decide nothing
 * about a payout; every journal refuses a move the table does not allow ({@link checkMove}).
 *
 * The states are the journal's ({@link PayoutState}); while a payout is looked up on the service it
 * stays `submitted` (a lookup moves no money, so a crash during one leaves it to be looked up again).
 * @module
 */
import { PayoutJournalError } from './journal-error';
import { FINAL_STATES, PAYOUT_STATES, type PayoutState } from './types';

/** What can happen to a payout. */
export type PayoutEvent =
  /** Its money-moving request is about to leave (journaled first). */
  | 'send'
  /** Its destination is an UMA address not yet looked up: the lookup (a read) comes before the quote. */
  | 'resolve'
  /** The UMA lookup answered: its `lookupId`, which the quote's body names, is journaled before the body is sent. */
  | 'resolved'
  /** The quote was created, to be executed (`execution: 'separate'`): journaled, then executed under its own key. */
  | 'created'
  /** The service took it: a quote with a transaction not yet final. */
  | 'accepted'
  /** No answer, or an answer that says nothing (5xx, timeout, cut connection): the outcome is unknown, and journaled as such. */
  | 'lost'
  /** A 429 (not the daily volume limit): the request is sent again under the same key once the pace allows. */
  | 'throttled'
  /** A 409 that a request in flight explains (not a reused key, an expired quote or a state transition): sent again under the same key. */
  | 'conflict'
  /** The service refused it for good (validation, a 4xx that will not change). */
  | 'refused'
  /** A transaction status that is not final and differs from the one journaled (from a poll or a webhook): journaled. */
  | 'status'
  /** A read that tells nothing new (the status journaled already, or the transaction not visible yet): the wait goes on. */
  | 'unchanged'
  /** A run starts on a payout journaled `processing`: it waits for the final status again. */
  | 'resume'
  /** The service's final word: the transaction completed (from an answer, a poll, a webhook or a lookup). */
  | 'completed'
  /** The service's final word: the transaction failed, was rejected, refunded or expired. */
  | 'failed'
  /** Its first send is older than the key-replay window less its margin: it is looked up, never re-sent blind. */
  | 'window_passed'
  /** The lookup found its transaction (then `status`, `completed` or `failed` follows with what it says). */
  | 'found'
  /** The lookup proves the service did not move it: sent again, under a fresh key. */
  | 'not_found'
  /** The lookup could not tell: a person decides. */
  | 'lookup_unknown'
  /** The runner will not guess: daily limit, a key reused with another body, unknown for too long, no transaction id. */
  | 'give_up'
  /** Its input was refused before anything was sent (a malformed row, a bad instruction, a duplicate). */
  | 'reject';

/** All events, in the table's order. */
export const PAYOUT_EVENTS: readonly PayoutEvent[] = [
  'send',
  'resolve',
  'resolved',
  'created',
  'accepted',
  'lost',
  'throttled',
  'conflict',
  'refused',
  'status',
  'unchanged',
  'resume',
  'completed',
  'failed',
  'window_passed',
  'found',
  'not_found',
  'lookup_unknown',
  'give_up',
  'reject',
];

/** What a driver does after a move. */
export type PayoutEffect =
  /** Write the record (durable before the next effect). */
  | 'journal'
  /** Send the money-moving request (the quote's create, or its execute) under the record's keys. */
  | 'request'
  /** Look the UMA destination up (`receiver.lookupUma`, a read that moves no money). */
  | 'receiver_lookup'
  /** Derive fresh Idempotency-Keys (the old ones may be forgotten by the service), then journal them. */
  | 'fresh_keys'
  /** Replay the failed request after a delay (or once the pace allows), with the same keys. */
  | 'retry_timer'
  /** Wait for the final status: a poll timer, or the webhook fallback timer (a webhook's news keeps the wait already set). */
  | 'wait_timer'
  /** Look the payout up on the service by its batch and reference ({@link findPayout}). */
  | 'lookup'
  /** The payout is final: clear its timers, end its span, count it. */
  | 'settle';

/** One legal move. */
export interface PayoutMove {
  readonly next: PayoutState;
  readonly effects: readonly PayoutEffect[];
}

const move = (next: PayoutState, ...effects: PayoutEffect[]): PayoutMove => Object.freeze({ next, effects: Object.freeze(effects) });
const settled = (next: 'completed' | 'failed' | 'needs_attention' | 'rejected') => move(next, 'journal', 'settle');

/**
 * The table: for each state, the events it takes and where they lead. An event a state does not list is
 * illegal in it; a final state lists none.
 */
export const PAYOUT_TRANSITIONS: Readonly<Record<PayoutState, Readonly<Partial<Record<PayoutEvent, PayoutMove>>>>> = Object.freeze({
  pending: Object.freeze({
    send: move('submitted', 'journal', 'request'),
    resolve: move('pending', 'receiver_lookup'),
    resolved: move('pending', 'journal'),
    lost: move('pending', 'journal', 'retry_timer'),
    throttled: move('pending', 'retry_timer'),
    conflict: move('pending', 'retry_timer'),
    refused: settled('failed'),
    give_up: settled('needs_attention'),
    reject: settled('rejected'),
  }),
  submitted: Object.freeze({
    send: move('submitted', 'journal', 'request'),
    resolve: move('submitted', 'receiver_lookup'),
    resolved: move('submitted', 'journal'),
    created: move('submitted', 'journal', 'request'),
    accepted: move('processing', 'journal', 'wait_timer'),
    lost: move('submitted', 'journal', 'retry_timer'),
    throttled: move('submitted', 'retry_timer'),
    conflict: move('submitted', 'retry_timer'),
    refused: settled('failed'),
    completed: settled('completed'),
    failed: settled('failed'),
    window_passed: move('submitted', 'lookup'),
    found: move('processing', 'journal', 'wait_timer'),
    not_found: move('submitted', 'fresh_keys', 'journal', 'request'),
    lookup_unknown: settled('needs_attention'),
    give_up: settled('needs_attention'),
  }),
  processing: Object.freeze({
    lost: move('processing', 'journal', 'retry_timer'),
    throttled: move('processing', 'retry_timer'),
    conflict: move('processing', 'retry_timer'),
    status: move('processing', 'journal', 'wait_timer'),
    unchanged: move('processing', 'wait_timer'),
    resume: move('processing', 'wait_timer'),
    completed: settled('completed'),
    failed: settled('failed'),
    give_up: settled('needs_attention'),
  }),
  completed: Object.freeze({}),
  failed: Object.freeze({}),
  needs_attention: Object.freeze({}),
  rejected: Object.freeze({}),
});

/** The move `event` makes from `state`, or undefined when the table does not allow it. */
export function transition(state: PayoutState, event: PayoutEvent): PayoutMove | undefined {
  const row = PAYOUT_TRANSITIONS[state] as Partial<Record<PayoutEvent, PayoutMove>> | undefined;
  return row !== undefined && Object.prototype.hasOwnProperty.call(row, event) ? row[event] : undefined;
}

/** Where a record starts: `pending` (admitted), or `rejected` (its input refused). */
export const INITIAL_STATES: ReadonlySet<PayoutState> = new Set<PayoutState>(['pending', 'rejected']);

/**
 * For each state, the states one of its moves leads to (none for a final state): read from the table
 * once, so that the check of every journal write walks no row and makes no array.
 */
const NEXT_STATES: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  PAYOUT_STATES.map((state) => [state, new Set(Object.values(PAYOUT_TRANSITIONS[state]).map((m) => m.next))] as const),
);
const STATES: ReadonlySet<unknown> = new Set<unknown>(PAYOUT_STATES);

/** Whether a journal may replace a record in state `prev` (undefined: none yet) by one in state `next`. */
export function legalMove(prev: PayoutState | undefined, next: PayoutState): boolean {
  if (!STATES.has(next)) return false;
  if (prev === undefined) return true; // a journal resumed on another machine may hold any state first
  if (prev === next) return true; // the same state rewritten (a final one unchanged in state: never left)
  if (FINAL_STATES.has(prev)) return false;
  return NEXT_STATES.get(prev)?.has(next) === true;
}

/** The error {@link checkMove} throws for the move from `prev` to `next` of `reference`. */
function illegalMove(reference: string, prev: PayoutState | undefined, next: PayoutState): PayoutJournalError {
  return new PayoutJournalError(
    'illegal_move',
    `Payout ${JSON.stringify(reference)}: the journal refuses the move from ${prev ?? '(none)'} to ${JSON.stringify(next)}${prev !== undefined && FINAL_STATES.has(prev) ? ` (${prev} is final)` : ''}.`,
  );
}

/**
 * The one check every journal makes before it writes: throws a {@link PayoutJournalError} (`illegal_move`)
 * naming the reference and both states when the table has no move from `prev` to `next`.
 */
export function checkMove(reference: string, prev: PayoutState | undefined, next: PayoutState): void {
  if (!legalMove(prev, next)) throw illegalMove(reference, prev, next);
}

/** The table as a mermaid state diagram (docs/payouts.md shows it; a test checks the two agree). */
export function stateDiagram(): string {
  const lines = ['stateDiagram-v2', '  [*] --> pending', '  [*] --> rejected'];
  for (const state of PAYOUT_STATES) {
    const row = PAYOUT_TRANSITIONS[state];
    // One arrow per (state, next), naming every event that takes it, in the table's order.
    const by = new Map<PayoutState, PayoutEvent[]>();
    for (const event of PAYOUT_EVENTS) {
      const m = row[event];
      if (m) by.set(m.next, [...(by.get(m.next) ?? []), event]);
    }
    for (const [next, events] of by) lines.push(`  ${state} --> ${next}: ${events.join(', ')}`);
  }
  for (const state of PAYOUT_STATES) if (FINAL_STATES.has(state)) lines.push(`  ${state} --> [*]`);
  return lines.join('\n');
}

/**
 * The states a journal has seen, for a journal that does not keep them itself (the file journal keeps
 * only offsets): what its `put` asks before it writes. The runner tells it the records it read at open.
 */
export class MoveGuard {
  readonly #states = new Map<string, PayoutState>();
  /** A record the journal holds (read at open): its state is where the next move starts. */
  seen(record: { reference: string; state: PayoutState }): void {
    this.#states.set(record.reference, record.state);
  }
  /** The refusal of writing `record` (the error `checkMove` throws), or undefined: then its state is noted. */
  refusal(record: { reference: string; state: PayoutState }): PayoutJournalError | undefined {
    const prev = this.#states.get(record.reference);
    if (!legalMove(prev, record.state)) return illegalMove(record.reference, prev, record.state);
    if (prev !== record.state) this.#states.set(record.reference, record.state);
    return undefined;
  }
}

const guards = new WeakMap<object, MoveGuard>();
/** The {@link MoveGuard} of `journal` (one per journal object). */
export function journalGuard(journal: object): MoveGuard {
  let guard = guards.get(journal);
  if (guard === undefined) guards.set(journal, (guard = new MoveGuard()));
  return guard;
}
