/** Journal records and lock paths for the journal and CLI tests (one shape, so the tests agree on it). */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { payoutKey, type PayoutRecord, type PayoutState } from '../../src/payouts/index';

/** A record of `reference` in `state` (batch `b`'s keys, one attempt), with `extra` over it. */
export const journalRecord = (reference: string, state: PayoutState = 'submitted', extra: Partial<PayoutRecord> = {}): PayoutRecord => ({
  reference,
  state,
  fingerprint: 'f',
  instruction: { reference, source: { accountId: 'InternalAccount:a' }, destination: { accountId: 'ExternalAccount:b' }, amount: 100 },
  keys: { create: payoutKey('b', reference, 'create'), execute: payoutKey('b', reference, 'execute') },
  attempts: 1,
  updatedAt: '2026-12-01T00:00:00.000Z',
  ...extra,
});

/** The lock of the journal file at `file` in the lock folder `locks` (named from the file's device and inode). */
export const lockOf = (file: string, locks: string): string => {
  const { dev, ino } = statSync(file, { bigint: true });
  return join(locks, `${dev}-${ino}.lock`);
};
