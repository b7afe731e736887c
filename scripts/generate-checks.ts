/**
 * Compiles the generated zod schemas (src/generated/zod.gen.ts) into plain checks built from
 * src/core/checks.ts: the same rules, the same issues, without zod at run time. One module per
 * operation (its path, query and body checks, loaded with the operation's first call, through the
 * `requestChecks` part's table, src/generated/parts.ts), one per resource's documented 2xx bodies
 * (responses/<tag>, loaded through the `responseChecks` part's table with the first answer
 * `validateResponses` checks), the checks that more than one of those modules needs in
 * `components.ts` (or in `components/<tags>.ts` when only the modules of a few resources need them), and
 * `responses.ts`, every response check by operation id for tests and tools.
 *
 * Used by scripts/generate.ts; test/core/compiled-checks.test.ts holds the result against zod.
 */

import { posix } from 'node:path';

type Json = Record<string, any>;

/** A live zod schema, as much of its internals as the compiler reads. */
interface Zod {
  _zod: { def: Json; traits: Set<string>; optin?: string; optout?: string; values?: Set<unknown>; propValues?: Record<string, Set<unknown>> };
}

export interface CheckRoots {
  /** Operation id → the zod export names of its path, query and body schemas. */
  params: Record<string, { path?: string | undefined; query?: string | undefined; body?: string | undefined }>;
  /** Operation id → the zod export name of its 2xx body schema. */
  responses: Record<string, string>;
  /** Operation id → the module its response check goes in (responses/<group>: the operations of one resource class, by tag). */
  responseGroups: Record<string, string>;
  /** Module name → zod export names checked by name (`events`: the webhook event). */
  named: Record<string, string[]>;
}

const RUNTIME = '../../core/checks';

/**
 * `zod` is the generated module, loaded; `order` its export names in declaration order (each
 * schema is declared after those it uses). Returns file name (under src/generated/checks/) → source.
 */
export function compileChecks(zod: Record<string, unknown>, order: string[], roots: CheckRoots, header: string): Record<string, string> {
  const nameOf = new Map<Zod, string>();
  for (const exported of order) {
    const schema = zod[exported] as Zod;
    if (!nameOf.has(schema)) nameOf.set(schema, exported.replace(/^z/, ''));
  }
  const schemaOf = new Map([...nameOf].map(([schema, name]) => [name, schema]));
  const declared = [...nameOf.values()];

  // One expression per named schema (references to other named schemas by name), and what each uses.
  const code = new Map<string, { expr: string; names: Set<string>; patterns: Set<string>; blocks: Set<string> }>();
  const patternIds = new Map<string, number>();
  // A variant made by z.extend often checks exactly what a named schema checks: it uses that name.
  const byExpr = new Map<string, string>();
  for (const name of declared) {
    const compiled = compile(schemaOf.get(name)!, nameOf, patternIds, byExpr);
    code.set(name, compiled);
    if (/^(object|variants|union|both)\(/.test(compiled.expr) && !byExpr.has(compiled.expr)) byExpr.set(compiled.expr, name);
  }

  // Modules and the named schemas each reaches. The documented 2xx bodies of one resource (one tag of
  // the document) have their module (responses/<tag>), loaded through its operations' modules: a bundle
  // holds the response checks of the resources it names, not a table of them all.
  const modules = new Map<string, { roots: [exportName: string, schema: string][] }>();
  for (const [id, parts] of Object.entries(roots.params)) {
    const list = (['path', 'query', 'body'] as const).filter((p) => parts[p]).map((p) => [p, nameOf.get(zod[parts[p]!] as Zod)!] as [string, string]);
    if (list.length) modules.set(id, { roots: list });
  }
  const groupOf = (id: string) => `responses/${roots.responseGroups[id] ?? id}`;
  for (const [id, exported] of Object.entries(roots.responses)) {
    const group = groupOf(id);
    (modules.get(group) ?? modules.set(group, { roots: [] }).get(group)!).roots.push([id, nameOf.get(zod[exported] as Zod)!]);
  }
  for (const [m, exports] of Object.entries(roots.named)) {
    modules.set(m, { roots: exports.map((exported) => [exported.replace(/^z/, ''), nameOf.get(zod[exported] as Zod)!]) });
  }

  const reach = (start: string[]) => {
    const seen = new Set<string>();
    const visit = (n: string) => {
      if (seen.has(n)) return;
      seen.add(n);
      for (const m of code.get(n)!.names) visit(m);
    };
    start.forEach(visit);
    return seen;
  };
  const reached = new Map([...modules].map(([m, { roots: r }]) => [m, reach(r.map(([, n]) => n))]));
  const users = new Map<string, string[]>();
  for (const [m, names] of reached) for (const n of names) (users.get(n) ?? users.set(n, []).get(n)!).push(m);
  // Where each named schema is declared: in the one module that reaches it. One that several modules
  // reach goes by the resources (tags) whose modules reach it: in components.ts when the webhook event
  // or many resources use it (what most bundles hold anyway), otherwise in components/<tags>.ts, so that
  // a bundle of a few resources does not hold the checks only others use (a module loaded by `import()`
  // keeps every constant it declares, used or not).
  const SHARED = 'components';
  const COMMON_TAGS = 4;
  const isResponse = (m: string) => m.startsWith('responses/');
  const tagOf = (m: string) => (m === SHARED || m.startsWith(`${SHARED}/`) ? m : isResponse(m) ? m.slice('responses/'.length) : (roots.responseGroups[m] ?? m));
  const homeOf = (users: string[]) => {
    if (users.length === 1) return users[0]!;
    // A schema's users include every user of the schemas that use it: a shared file's own users, when
    // it is one, stand for theirs.
    const tags = [
      ...new Set(users.flatMap((m) => (m === SHARED ? [SHARED] : m.startsWith(`${SHARED}/`) ? m.slice(SHARED.length + 1).split('+') : [tagOf(m)]))),
    ].sort();
    return tags.includes(SHARED) || tags.includes('events') || tags.length >= COMMON_TAGS ? SHARED : `${SHARED}/${tags.join('+')}`;
  };
  const home = new Map(declared.filter((n) => users.has(n)).map((n) => [n, homeOf(users.get(n)!)]));
  // A few hundred characters of checks cost a bundle less than one more module: those go to components.ts
  // (unless they use a file of their own resources, which components.ts would then load for everyone).
  const SMALL = 300;
  const sizes = new Map<string, number>();
  for (const [n, file] of home) if (file.startsWith(`${SHARED}/`)) sizes.set(file, (sizes.get(file) ?? 0) + code.get(n)!.expr.length);
  for (const [file, size] of sizes) {
    const names = [...home].filter(([, f]) => f === file).map(([n]) => n);
    const usesOwn = names.some((n) => [...code.get(n)!.names].some((m) => home.get(m)?.startsWith(`${SHARED}/`)));
    if (size < SMALL && !usesOwn) for (const n of names) home.set(n, SHARED);
  }
  const patterns = [...patternIds.keys()];
  const patternName = new Map(patterns.map((p) => [p, `P${patternIds.get(p)}`]));
  // Patterns likewise, by the files of the schemas that use them.
  const patternUsers = new Map<string, Set<string>>();
  for (const [n, file] of home) for (const p of code.get(n)!.patterns) (patternUsers.get(p) ?? patternUsers.set(p, new Set()).get(p)!).add(file);
  const homes = new Set(home.values());
  // A pattern alone would be a module of one line: it goes to components.ts.
  const patternHome = new Map<string, string>(
    [...patternUsers].map(([p, files]) => {
      const f = homeOf([...files]);
      return [p, f.startsWith(`${SHARED}/`) && !homes.has(f) ? SHARED : f];
    }),
  );
  const sharedFiles = [...new Set([SHARED, ...[...home.values(), ...patternHome.values()].filter((f) => f.startsWith(`${SHARED}/`)).sort()])];

  const withPatterns = (expr: string) => expr.replace(/@@(\d+)@@/g, (_, i: string) => `P${i}`);
  /** `to` (a path under src/generated/checks/) as imported from `from`. */
  const relative = (from: string, to: string) => {
    const target = posix.join(posix.relative(posix.dirname(from), posix.dirname(to)) || '.', posix.basename(to));
    return target.startsWith('.') ? target : `./${target}`;
  };

  const files: Record<string, string> = {};
  const emit = (file: string, exports: [string, string][]) => {
    const shared = sharedFiles.includes(file);
    const names = declared.filter((n) => home.get(n) === file);
    const own = names.map((n) => [n, withPatterns(code.get(n)!.expr)] as const);
    const localPatterns = patterns.filter((p) => patternHome.get(p) === file);
    // What this file takes from the shared files: schemas its own reference or export, and patterns.
    const used = new Set([...names.flatMap((n) => [...code.get(n)!.names]), ...exports.map(([, n]) => n)]);
    const usedPatterns = new Set(names.flatMap((n) => [...code.get(n)!.patterns]));
    const imports = sharedFiles
      .filter((f) => f !== file)
      .map(
        (f) =>
          [
            f,
            [
              ...[...used].filter((n) => home.get(n) === f).sort(),
              ...patterns.filter((p) => usedPatterns.has(p) && patternHome.get(p) === f).map((p) => patternName.get(p)!),
            ],
          ] as const,
      )
      .filter(([, list]) => list.length > 0);
    const lines = [header + '/* eslint-disable */'];
    const runtime = [...new Set(names.flatMap((n) => [...code.get(n)!.blocks]))].sort();
    if (runtime.length) lines.push(`import { ${runtime.join(', ')} } from '${relative(file, RUNTIME)}';`);
    for (const [f, list] of imports) lines.push(`import { ${list.join(', ')} } from '${relative(file, f)}';`);
    lines.push('');
    for (const p of localPatterns) lines.push(`${shared ? 'export ' : ''}const ${patternName.get(p)} = ${p};`);
    for (const [n, e] of own) lines.push(`${shared ? 'export ' : ''}const ${n} = /* @__PURE__ */ ${e};`);
    const sameName = exports.filter(([exportName, n]) => exportName === n).map(([n]) => n);
    for (const [exportName, n] of exports) if (exportName !== n) lines.push(`export const ${exportName} = ${n};`);
    if (sameName.length) lines.push(`export { ${sameName.join(', ')} };`);
    files[`${file}.ts`] = lines.join('\n') + '\n';
  };

  for (const file of sharedFiles) emit(file, []);
  for (const [m, { roots: r }] of modules) emit(m, r);
  // Every response check by operation id, for tests and tools (the client loads each through its operation).
  files['responses.ts'] =
    header +
    '/* eslint-disable */\n' +
    [...modules.keys()]
      .filter(isResponse)
      .map(
        (m) =>
          `export { ${modules
            .get(m)!
            .roots.map(([id]) => id)
            .join(', ')} } from './${m}';`,
      )
      .join('\n') +
    '\n';
  return files;
}

/** One schema as an expression over the runtime's blocks; named schemas it uses are referenced by name. */
function compile(
  root: Zod,
  nameOf: Map<Zod, string>,
  patternIds: Map<string, number>,
  byExpr: Map<string, string>,
): { expr: string; names: Set<string>; patterns: Set<string>; blocks: Set<string> } {
  const names = new Set<string>();
  const blocks = new Set<string>();
  /** A block of src/core/checks.ts, recorded for the import line. */
  const b = (block: string) => (blocks.add(block), block);
  const patterns = new Set<string>();
  const pattern = (re: RegExp) => {
    const literal = String(re);
    patterns.add(literal);
    if (!patternIds.has(literal)) patternIds.set(literal, patternIds.size);
    return `@@${patternIds.get(literal)}@@`;
  };
  const fail = (what: string): never => {
    throw new Error(`compile checks: ${what} is not supported (${nameOf.get(root) ?? 'schema'})`);
  };

  const rulesOf = (checks: Json[] | undefined, known?: readonly unknown[]): string[] =>
    (checks ?? []).map((c) => {
      const def = (c as Zod)._zod.def;
      if (def.abort && def.check !== 'custom') fail(`an aborting ${def.check} check`);
      // zod's own `when` of length checks (run on anything with a length) is what minLength/maxLength do.
      if (def.when && !((def.check === 'min_length' || def.check === 'max_length') && def.when.name === '_whenHasLength')) fail(`a check with 'when'`);
      switch (def.check) {
        case 'string_format':
          if (def.format !== 'regex') fail(`string format ${def.format} as a check`);
          return `${b('matches')}(${pattern(def.pattern)})`;
        case 'min_length':
          return `${b('minLength')}(${def.minimum})`;
        case 'max_length':
          return `${b('maxLength')}(${def.maximum})`;
        case 'greater_than':
          return `${b(def.inclusive ? 'gte' : 'gt')}(${def.value})`;
        case 'less_than':
          return `${b(def.inclusive ? 'lte' : 'lt')}(${def.value})`;
        case 'custom':
          if (!def.abort || !def.params?.knownDiscriminator || !known) fail('a refinement other than an open union');
          return `${b('notOneOf')}(${JSON.stringify(known)})`;
        default:
          return fail(`check ${def.check}`);
      }
    });

  const expr = (schema: Zod, top = false): string => {
    const named = nameOf.get(schema);
    if (!top && named !== undefined) {
      names.add(named);
      return named;
    }
    const text = build(schema);
    const same = top ? undefined : byExpr.get(text);
    if (same === undefined) return text;
    names.add(same);
    return same;
  };

  const build = (schema: Zod): string => {
    const { def, traits } = schema._zod;
    if (def.coerce) fail('coercion');
    switch (def.type) {
      case 'string': {
        const rules: string[] = [];
        if (traits.has('$ZodStringFormat')) {
          if (def.format === 'url') {
            if ('normalize' in def || 'hostname' in def || 'protocol' in def) fail('url options');
            rules.push(b('url'));
          } else if (def.pattern instanceof RegExp) rules.push(`${b('matches')}(${pattern(def.pattern)}, ${JSON.stringify(def.format)})`);
          else fail(`string format ${def.format}`);
        }
        rules.push(...rulesOf(def.checks));
        return rules.length ? `${b('str')}(${rules.join(', ')})` : b('string');
      }
      case 'number': {
        const rules: string[] = [];
        if (traits.has('$ZodNumberFormat')) {
          if (def.format !== 'safeint') fail(`number format ${def.format}`);
          rules.push(b('int'));
        }
        rules.push(...rulesOf(def.checks));
        return rules.length ? `${b('num')}(${rules.join(', ')})` : b('number');
      }
      case 'boolean':
        return b('boolean');
      case 'unknown':
      case 'any':
        return b('unknown');
      case 'never':
        return b('never');
      case 'void':
        return b('nothing');
      case 'literal':
        return `${b('literal')}(${JSON.stringify(def.values)})`;
      case 'enum':
        return `${b('literal')}(${JSON.stringify([...schema._zod.values!])})`;
      case 'optional':
        if (def.innerType._zod.optin === 'defaulted') fail('a default');
        return `${b('optional')}(${expr(def.innerType)})`;
      case 'default':
        return `${b('defaulted')}(${expr(def.innerType)})`;
      case 'nullable':
        return `${b('nullable')}(${expr(def.innerType)})`;
      case 'readonly':
        return expr(def.innerType);
      case 'array':
        return `${b('array')}(${[expr(def.element), ...rulesOf(def.checks)].join(', ')})`;
      case 'object': {
        if (def.catchall) fail('an object with a catchall');
        if (def.checks?.length) fail('object checks');
        const shape = def.shape as Record<string, Zod>;
        const fields = Object.keys(shape).map((key) => `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: ${expr(shape[key]!)}`);
        return `${b('object')}({ ${fields.join(', ')} })`;
      }
      case 'record': {
        const key = def.keyType._zod.def;
        if (key.type !== 'string' || key.checks?.length) fail('a record whose keys are not plain strings');
        return `${b('record')}(${expr(def.valueType)})`;
      }
      case 'union': {
        if (def.checks?.length) fail('union checks');
        if (traits.has('$ZodDiscriminatedUnion')) {
          if (def.unionFallback) fail('unionFallback');
          const key: string = def.discriminator;
          const map = new Map<unknown, Zod | null>();
          for (const option of def.options as Zod[]) {
            const values = option._zod.propValues?.[key];
            if (!values || values.size === 0) fail('a variant without a discriminator value');
            for (const value of values!) {
              if (map.has(value)) {
                if (value !== undefined) fail(`duplicate discriminator ${String(value)}`);
                map.set(value, null);
              } else map.set(value, option);
            }
          }
          const entries = [...map].map(
            ([value, option]) => `[${value === undefined ? 'undefined' : JSON.stringify(value)}, ${option ? expr(option) : 'null'}]`,
          );
          return `${b('variants')}(${JSON.stringify(key)}, new Map([${entries.join(', ')}]))`;
        }
        const options = def.options as Zod[];
        // An open union (x-open-discriminator): the known variants, or another discriminator value
        // whose field refuses the known ones.
        const first = options[0]!._zod;
        const key = first.traits.has('$ZodDiscriminatedUnion') ? (first.def.discriminator as string) : undefined;
        const refuses = (o: Zod) =>
          key !== undefined &&
          o._zod.def.type === 'object' &&
          (o._zod.def.shape[key]?._zod.def.checks ?? []).some((c: Zod) => c._zod.def.params?.knownDiscriminator);
        const known = key === undefined ? [] : [...new Set((first.def.options as Zod[]).flatMap((o) => [...(o._zod.propValues?.[key] ?? [])]))];
        return `${b('union')}([${options.map((o) => (refuses(o) ? openBranch(o, [key, ...known]) : expr(o))).join(', ')}])`;
      }
      case 'intersection': {
        for (const side of [def.left, def.right] as Zod[]) if (side._zod.def.type !== 'object') fail('an intersection of non-objects');
        return `${b('both')}(${expr(def.left)}, ${expr(def.right)})`;
      }
      default:
        return fail(`type ${def.type}`);
    }
  };

  /** The other-values branch of an open union: its discriminator field refuses the known values. */
  const openBranch = (schema: Zod, [key, ...known]: unknown[]): string => {
    const def = schema._zod.def;
    if (def.type !== 'object') return expr(schema);
    const shape = def.shape as Record<string, Zod>;
    const fields = Object.keys(shape).map((k) => {
      const field = shape[k]!;
      const value = k === key ? `${b('str')}(${rulesOf(field._zod.def.checks, known).join(', ')})` : expr(field);
      if (k === key && field._zod.def.type !== 'string') fail('an open discriminator that is not a string');
      return `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${value}`;
    });
    return `${b('object')}({ ${fields.join(', ')} })`;
  };

  return { expr: expr(root, true), names, patterns, blocks };
}
