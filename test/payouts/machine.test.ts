/**
 * The payout state machine (src/payouts/machine.ts): every state × event against the table written out
 * here by hand, nothing leaves a final state, and every journal (memory, file, Redis through a fake
 * client that runs the same check) refuses an illegal move with the same typed error.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import Redis from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from '../helpers/redis-server';
import { checkMove, legalMove, PAYOUT_EVENTS, PAYOUT_TRANSITIONS, stateDiagram, transition, type PayoutEvent } from '../../src/payouts/machine';
import {
  FileJournal,
  FINAL_STATES,
  RedisJournal,
  MemoryJournal,
  PAYOUT_STATES,
  PayoutJournalError,
  type PayoutRecord,
  type PayoutState,
} from '../../src/payouts/index';

/** The expected table, written independently of the source: "state event" → "next effects…". */
const EXPECTED: Record<string, string> = {
  'pending send': 'submitted journal request',
  'pending resolve': 'pending receiver_lookup',
  'pending resolved': 'pending journal',
  'pending lost': 'pending journal retry_timer',
  'pending throttled': 'pending retry_timer',
  'pending conflict': 'pending retry_timer',
  'pending refused': 'failed journal settle',
  'pending give_up': 'needs_attention journal settle',
  'pending reject': 'rejected journal settle',
  'submitted send': 'submitted journal request',
  'submitted resolve': 'submitted receiver_lookup',
  'submitted resolved': 'submitted journal',
  'submitted created': 'submitted journal request',
  'submitted accepted': 'processing journal wait_timer',
  'submitted lost': 'submitted journal retry_timer',
  'submitted throttled': 'submitted retry_timer',
  'submitted conflict': 'submitted retry_timer',
  'submitted refused': 'failed journal settle',
  'submitted completed': 'completed journal settle',
  'submitted failed': 'failed journal settle',
  'submitted window_passed': 'submitted lookup',
  'submitted found': 'processing journal wait_timer',
  'submitted not_found': 'submitted fresh_keys journal request',
  'submitted lookup_unknown': 'needs_attention journal settle',
  'submitted give_up': 'needs_attention journal settle',
  'processing lost': 'processing journal retry_timer',
  'processing throttled': 'processing retry_timer',
  'processing conflict': 'processing retry_timer',
  'processing status': 'processing journal wait_timer',
  'processing unchanged': 'processing wait_timer',
  'processing resume': 'processing wait_timer',
  'processing completed': 'completed journal settle',
  'processing failed': 'failed journal settle',
  'processing give_up': 'needs_attention journal settle',
};

describe('the transition table', () => {
  it('has the states of the journal, rejected among the final ones', () => {
    expect([...PAYOUT_STATES]).toEqual(['pending', 'submitted', 'processing', 'completed', 'failed', 'needs_attention', 'rejected']);
    expect([...FINAL_STATES].sort()).toEqual(['completed', 'failed', 'needs_attention', 'rejected']);
    expect(Object.keys(PAYOUT_TRANSITIONS).sort()).toEqual([...PAYOUT_STATES].sort());
  });

  it('has every event the drivers take, in the table order, each one some state takes', () => {
    expect([...PAYOUT_EVENTS]).toEqual([
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
    ]);
    for (const event of PAYOUT_EVENTS) expect(Object.keys(EXPECTED).some((k) => k.endsWith(` ${event}`))).toBe(true);
  });

  for (const state of PAYOUT_STATES) {
    for (const event of PAYOUT_EVENTS) {
      const key = `${state} ${event}`;
      it(`${key} → ${EXPECTED[key] ?? 'illegal'}`, () => {
        const m = transition(state, event);
        if (EXPECTED[key] === undefined) expect(m).toBeUndefined();
        else expect(m && [m.next, ...m.effects].join(' ')).toBe(EXPECTED[key]);
      });
    }
  }

  it('nothing leaves a final state, and the table lists no event for one', () => {
    for (const state of FINAL_STATES) {
      expect(Object.keys(PAYOUT_TRANSITIONS[state])).toEqual([]);
      for (const next of PAYOUT_STATES) expect(legalMove(state, next)).toBe(next === state);
    }
  });

  it('only a money-moving request follows send or not_found, and only submitted looks a payout up', () => {
    const requesting = new Set<string>();
    const looking = new Set<string>();
    for (const state of PAYOUT_STATES) {
      for (const event of PAYOUT_EVENTS) {
        const m = transition(state, event);
        if (m?.effects.includes('request')) requesting.add(event);
        if (m?.effects.includes('lookup')) looking.add(`${state} ${event}`);
        // A request is journaled first (the journal write comes before it in the effects).
        if (m?.effects.includes('request')) expect(m.effects.indexOf('journal')).toBeLessThan(m.effects.indexOf('request'));
      }
    }
    expect([...requesting].sort()).toEqual(['created', 'not_found', 'send']);
    expect([...looking]).toEqual(['submitted window_passed']);
  });

  it('the table cannot be changed at run time', () => {
    expect(() => {
      (PAYOUT_TRANSITIONS.completed as Record<string, unknown>).send = { next: 'submitted', effects: [] };
    }).toThrow(TypeError);
    expect(transition('completed', 'send')).toBeUndefined();
  });

  it('legal moves between journal states are exactly the moves the table makes (and a state rewritten)', () => {
    for (const prev of PAYOUT_STATES) {
      const targets = new Set<PayoutState>([prev]);
      if (!FINAL_STATES.has(prev))
        for (const e of PAYOUT_EVENTS) {
          const m = transition(prev, e);
          if (m) targets.add(m.next);
        }
      for (const next of PAYOUT_STATES) expect(`${prev}>${next}:${legalMove(prev, next)}`).toBe(`${prev}>${next}:${targets.has(next)}`);
    }
    expect(legalMove(undefined, 'pending')).toBe(true);
    expect(legalMove('pending', 'bogus' as PayoutState)).toBe(false);
  });

  it('checkMove throws a PayoutJournalError naming the reference and both states', () => {
    let error: unknown;
    try {
      checkMove('inv-7', 'completed', 'submitted');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PayoutJournalError);
    expect((error as PayoutJournalError).reason).toBe('illegal_move');
    expect((error as Error).message).toBe('Payout "inv-7": the journal refuses the move from completed to "submitted" (completed is final).');
    expect(() => checkMove('inv-7', 'processing', 'pending')).toThrow('Payout "inv-7": the journal refuses the move from processing to "pending".');
    expect(() => checkMove('inv-7', 'submitted', 'processing')).not.toThrow();
  });

  it('docs/payouts.md shows the diagram the table gives', () => {
    const doc = readFileSync(join(__dirname, '../../docs/payouts.md'), 'utf8');
    const block = /<!-- state diagram: stateDiagram\(\) of src\/payouts\/machine\.ts -->\n```mermaid\n([\s\S]*?)\n```/.exec(doc);
    expect(block?.[1]).toBe(stateDiagram());
  });

  it('the diagram has one arrow per (state, next) of the table', () => {
    const arrows = stateDiagram()
      .split('\n')
      .filter((l) => l.includes('-->') && !l.includes('[*]'));
    const pairs = new Set<string>();
    for (const state of PAYOUT_STATES)
      for (const e of PAYOUT_EVENTS) {
        const m = transition(state, e);
        if (m) pairs.add(`${state} --> ${m.next}`);
      }
    expect(arrows.map((l) => l.trim().split(':')[0]).sort()).toEqual([...pairs].sort());
    expect(stateDiagram()).toContain('  submitted --> submitted: send, resolve, resolved, created, lost, throttled, conflict, window_passed, not_found');
    expect(stateDiagram()).toContain('  processing --> processing: lost, throttled, conflict, status, unchanged, resume');
  });
});

const record = (reference: string, state: PayoutState): PayoutRecord => ({
  reference,
  state,
  fingerprint: 'f2:x',
  instruction: { reference, source: { accountId: 'a' }, destination: { accountId: 'b' }, amount: 1 },
  keys: { create: 'k1', execute: 'k2' },
  attempts: 0,
  updatedAt: new Date(0).toISOString(),
});

describe('every journal refuses an illegal move the same way', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  const journals: [
    string,
    () => Promise<{ put(r: PayoutRecord): Promise<void>; get(r: string): Promise<PayoutRecord | undefined>; close(): Promise<void> }>,
  ][] = [
    [
      'MemoryJournal',
      async () => {
        const j = new MemoryJournal();
        await j.open('b');
        return j;
      },
    ],
    [
      'FileJournal',
      async () => {
        const dir = mkdtempSync(join(tmpdir(), 'cb-machine-'));
        dirs.push(dir);
        const j = new FileJournal(join(dir, 'j.journal'));
        for (const _ of await j.open('b')) void _;
        return j;
      },
    ],
  ];
  for (const [name, make] of journals) {
    it(`${name}: completed → submitted and processing → pending are refused; the record stays`, async () => {
      const j = await make();
      await j.put(record('r1', 'pending'));
      await j.put(record('r1', 'submitted'));
      await j.put(record('r1', 'processing'));
      await expect(j.put(record('r1', 'pending'))).rejects.toThrow('Payout "r1": the journal refuses the move from processing to "pending".');
      await j.put(record('r1', 'completed'));
      const refused = await j.put(record('r1', 'submitted')).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(PayoutJournalError);
      expect((refused as PayoutJournalError).reason).toBe('illegal_move');
      await expect(j.put(record('r1', 'needs_attention'))).rejects.toThrow('from completed to "needs_attention" (completed is final)');
      expect((await j.get('r1'))?.state).toBe('completed');
      await j.close();
    });
  }
});

const hasRedis = spawnSync('redis-server', ['--version']).status === 0;
describe.runIf(hasRedis)('RedisJournal: the same check, inside its Lua script (real redis-server)', () => {
  let server: RedisServer;
  let client: Redis;
  beforeAll(async () => {
    server = await startRedisServer();
    client = new Redis({ port: server.port, host: '127.0.0.1', maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    await client?.quit();
    server?.stop();
  });

  it('refuses what the table refuses, with the same error, and keeps the record', async () => {
    const j = new RedisJournal(client, { prefix: `t${Date.now()}:` });
    await j.open('b');
    await j.put(record('r1', 'pending'));
    await j.put(record('r1', 'submitted'));
    await j.put(record('r1', 'processing'));
    await expect(j.put(record('r1', 'pending'))).rejects.toThrow('Payout "r1": the journal refuses the move from processing to "pending".');
    await j.put(record('r1', 'completed'));
    const refused = await j.put(record('r1', 'needs_attention')).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PayoutJournalError);
    expect((refused as Error).message).toBe('Payout "r1": the journal refuses the move from completed to "needs_attention" (completed is final).');
    expect((await j.get('r1'))?.state).toBe('completed');
    // A second batch on one object is refused; batch(id) gives a journal per batch, under its own key.
    await expect(j.open('other')).rejects.toThrow(PayoutJournalError);
    const other = j.batch('other');
    await other.put(record('r1', 'pending'));
    expect((await other.get('r1'))?.state).toBe('pending');
    expect((await j.get('r1'))?.state).toBe('completed');
  });
});

describe('what the table does not know', () => {
  it("an event that is not the state's own (an Object.prototype name) is no move", () => {
    for (const name of ['toString', 'constructor', 'hasOwnProperty', '__proto__', 'valueOf']) {
      expect(transition('pending', name as PayoutEvent), name).toBeUndefined();
      expect(transition('completed', name as PayoutEvent), name).toBeUndefined();
    }
  });

  it('a state the table does not know (a journal of a newer version) has no moves, and nothing moves to one', () => {
    expect(transition('paused' as PayoutState, 'send')).toBeUndefined();
    expect(legalMove('paused' as PayoutState, 'pending')).toBe(false);
    expect(legalMove('paused' as PayoutState, 'completed')).toBe(false);
    expect(legalMove('paused' as PayoutState, 'paused' as PayoutState)).toBe(false);
    expect(legalMove(undefined, 'paused' as PayoutState)).toBe(false);
    expect(() => checkMove('inv-8', 'paused' as PayoutState, 'completed')).toThrow('Payout "inv-8": the journal refuses the move from paused to "completed".');
    expect(() => checkMove('inv-8', undefined, 'paused' as PayoutState)).toThrow('Payout "inv-8": the journal refuses the move from (none) to "paused".');
  });
});
