/**
 * Every effect a driver makes is a step of a move the table lists, in both drivers (the batch runner and
 * the BullMQ processor), over the simulation (./harness.ts): faults, lost answers, 429s, crashes, the key
 * window passed, UMA destinations, separate execution, webhooks.
 *
 * The drivers say which step they run (the `PAYOUT_STEP_TRACE` option: reference, state, event, effect);
 * the simulation sees, from the outside, every journal write and every request. Each seen effect is
 * checked against the step its reference is in: a journal write only in a `journal` step (one write, of
 * the state the move leads to), a quote created only in the `request` step of `send`, executed only in
 * that of `created`, an UMA lookup only in a `receiver_lookup` step, a transaction read only in a
 * `wait_timer` or `retry_timer` step (one read each), a transaction list only while some reference is in
 * a `lookup` step. A write or request a driver makes outside a step of the table is found here.
 */
import { describe, expect, it } from 'vitest';
import { PAYOUT_STEP_TRACE, type PayoutStep } from '../../../src/payouts/driver';
import { transition, type PayoutEffect } from '../../../src/payouts/machine';
import { explain, KEY_WINDOW_MS, simulate, type Process, type SimCase } from './harness';
import { seededCase } from './seeded';

/** The step a reference is in, and whether the effect it stands for was seen already. */
interface Current extends PayoutStep {
  used: boolean;
}

/** Runs `c`, checking every effect against the step of its reference: the problems found, and the moves the drivers made. */
async function checkSteps(c: SimCase): Promise<{ problems: string[]; moves: Set<string> }> {
  const problems: string[] = [];
  const moves = new Set<string>();
  /** The latest step each driver announced per reference ("<process> <reference>"). */
  const current = new Map<string, Current>();
  const referenceOf = (destination: string | undefined): string => /p\d{3}/.exec(destination ?? '')?.[0] ?? `?${destination}`;
  /** `what` is an effect of `reference` that only a step `allowed` makes, and only one of it per step. */
  const inStep = (proc: Process, reference: string, what: string, allowed: (s: Current) => boolean): Current | undefined => {
    const s = current.get(`${proc.id} ${reference}`);
    if (s === undefined || !allowed(s) || s.used) {
      problems.push(
        `${what} (process ${proc.id}) outside a step of its own: ${s ? `in ${s.from} ${s.event} → ${s.effect}${s.used ? ', whose effect was made already' : ''}` : 'no step yet'}`,
      );
      return undefined;
    }
    s.used = true;
    return s;
  };
  const step = (effect: PayoutEffect, event?: string) => (s: Current) => s.effect === effect && (event === undefined || s.event === event);
  const result = await simulate(c, {
    options: (proc) => ({
      [PAYOUT_STEP_TRACE]: (s: PayoutStep) => {
        if (!transition(s.from, s.event)?.effects.includes(s.effect)) problems.push(`step ${s.from} ${s.event} → ${s.effect}: not in the table`);
        moves.add(`${s.from} ${s.event}`);
        current.set(`${proc.id} ${s.reference}`, { ...s, used: false });
      },
    }),
    effect: (proc, what, world) => {
      const [kind, name, arg] = what.split(' ');
      const service = world.service;
      if (kind === 'put') {
        const s = inStep(proc, name!, what, step('journal'));
        const next = s && transition(s.from, s.event)?.next;
        if (s && next !== arg) problems.push(`${what}: the move ${s.from} ${s.event} leads to ${next}`);
      } else if (kind === 'send' && name === 'quotes.create') {
        inStep(proc, referenceOf(arg), what, step('request', 'send'));
      } else if (kind === 'send' && name === 'quotes.execute') {
        inStep(proc, referenceOf(service.quotes.get(arg!)?.destination), what, step('request', 'created'));
      } else if (kind === 'send' && name === 'receiver.lookupUma') {
        inStep(proc, referenceOf(arg), what, step('receiver_lookup'));
      } else if (kind === 'send' && name === 'transactions.retrieve') {
        inStep(proc, referenceOf(service.transactions.get(arg!)?.destination), what, (s) => s.effect === 'wait_timer' || s.effect === 'retry_timer');
      } else if (kind === 'send' && name === 'transactions.list') {
        // A lookup lists pages until it finds the payout (the request names no reference): some reference is looking up.
        if (![...current].some(([key, s]) => key.startsWith(`${proc.id} `) && s.effect === 'lookup'))
          problems.push(`${what.slice(0, 40)}… (process ${proc.id}) while no reference is in a lookup step`);
      } else if (kind === 'send') {
        problems.push(`an effect this test does not know: ${what}`);
      }
    },
  });
  if (result.problems.length > 0) problems.push(explain(result, 30));
  return { problems, moves };
}

/** The cases both drivers run: faults at high rates, crashes, the window passed, UMA destinations, separate execution. */
function cases(driver: 'batch' | 'bullmq'): SimCase[] {
  const list: SimCase[] = [];
  for (let seed = 1; seed <= 6; seed++) {
    const c = seededCase(seed, seed % 3 === 0, 24);
    list.push({
      ...c,
      driver,
      umaEvery: seed % 2 === 0 ? 3 : undefined,
      execution: seed % 2 === 1 ? 'separate' : 'immediate',
      webhooks: driver === 'batch' && seed <= 3,
      faults: { ...c.faults, lostBefore: 0.1, lostAfter: 0.1, throttled: 0.15, unavailable: 0.03 },
      pendingFirst: true,
      options: { pollIntervalMs: 500 },
    });
  }
  // Crashes right after the first sends, then 25 hours: looked up (found, or not found and sent again).
  list.push({ seed: 77, n: 6, driver, writes: ['lostAfter', 'lostBefore', 'lostAfter'], crashAt: [9], jumpMs: KEY_WINDOW_MS + 3_600_000, settleMs: 1_500 });
  return list;
}

/** Moves every run of both drivers makes in these cases (the ones the simulation can bring about). */
const EXPECTED_MOVES = [
  'pending send',
  'pending resolve',
  'pending resolved',
  'submitted send',
  'submitted created',
  'submitted accepted',
  'submitted lost',
  'submitted throttled',
  'submitted window_passed',
  'submitted found',
  'submitted not_found',
  'processing lost',
  'processing throttled',
  'processing status',
  'processing unchanged',
  'processing resume',
  'processing completed',
  'processing failed',
];

describe('every effect of a driver is a step of a move the table lists', () => {
  for (const driver of ['batch', 'bullmq'] as const) {
    it(`${driver === 'batch' ? 'the batch runner' : 'the BullMQ processor'}: every journal write and request, over the simulation`, async () => {
      const moves = new Set<string>();
      for (const c of cases(driver)) {
        const { problems, moves: seen } = await checkSteps(c);
        expect(problems.slice(0, 5), `case ${JSON.stringify(c)}`).toEqual([]);
        for (const m of seen) moves.add(m);
      }
      // The cases reach the moves of a payout's whole life, retries and lookups included.
      expect(EXPECTED_MOVES.filter((m) => !moves.has(m))).toEqual([]);
    }, 120_000);
  }
});
