/**
 * Keeps the zod schemas and the TypeScript types (both generated from openapi/openapi.yaml) in
 * agreement: for every component schema, each side is assignable to the other.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type * as z from 'zod/mini';
import type * as Z from '../../src/generated/zod.gen';
import type { components } from '../../src/generated/types';
import type { Uploadable } from '../../src/core/form';

type Schemas = components['schemas'];
type Agree<A, B> = [A] extends [B] ? ([B] extends [A] ? true : 'zod is wider than the type') : 'zod is narrower than the type';
/** Primitives as they are (an open set's `string & {}` is not an object to map); `readOnly` comes out as readonly arrays in zod and readonly properties in TS: not a difference in data. */
type Writable<T> = T extends string | number | boolean | null | undefined
  ? T
  : T extends readonly (infer U)[]
    ? Writable<U>[]
    : T extends object
      ? { -readonly [K in keyof T]: Writable<T[K]> }
      : T;
type Zod = typeof Z;
/** Request bodies are compared as zod accepts them (input, before defaults), the rest as zod returns them. */
type Side<N extends string, S extends z.ZodMiniType> = N extends `${string}Params` ? z.input<S> : z.output<S>;
/**
 * A file part written `format: binary` without `type` (a document's `file`): the type is the SDK's `Uploadable`,
 * the check takes any value (the encoder refuses what it cannot send); compared without it, and on its own below.
 */
type Uploads = 'DocumentUploadRequest' | 'DocumentReplaceRequest';
type Compared<N extends string, T> = N extends Uploads ? Omit<T, 'file'> : T;
type Report = {
  [N in keyof Schemas & string]: `z${N}` extends keyof Zod
    ? Zod[`z${N}`] extends z.ZodMiniType
      ? Agree<Writable<Compared<N, Side<N, Zod[`z${N}`]>>>, Writable<Compared<N, Schemas[N]>>>
      : 'not a schema'
    : 'no zod schema';
};

/** The schemas that disagree, with the reason; `{}` when all agree. */
type Disagreements = { [K in keyof Report as Report[K] extends true ? never : K]: Report[K] };

describe('zod schemas and TypeScript types agree', () => {
  it('for every component schema', () => {
    expectTypeOf<Disagreements>().toEqualTypeOf<{}>();
    expectTypeOf<keyof Report>().toEqualTypeOf<keyof Schemas & string>();
  });

  it("a document's file is the SDK's Uploadable, and its check takes any value", () => {
    expectTypeOf<Schemas['DocumentUploadRequest']['file']>().toEqualTypeOf<Uploadable>();
    expectTypeOf<Schemas['DocumentReplaceRequest']['file']>().toEqualTypeOf<Uploadable>();
    expectTypeOf<z.input<Zod['zDocumentUploadRequest']>['file']>().toEqualTypeOf<unknown>();
  });

  it('the check can fail', () => {
    expectTypeOf<Agree<{ a: string }, { a: number }>>().not.toEqualTypeOf<true>();
    expectTypeOf<Agree<{ a: string; b?: number }, { a: string }>>().toEqualTypeOf<true>();
  });
});
