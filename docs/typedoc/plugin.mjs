// @ts-check
/**
 * TypeDoc plugin for the crossborder-sdk reference (loaded by typedoc.json).
 *
 * 1. The generated API types (openapi-typescript) describe fields with a JSDoc `@description`
 *    tag: show that text as the field's summary instead of under a "Description" heading.
 * 2. Parameters, return types and properties written with a name from `src/types.ts` (such as
 *    `QuoteCreateParams` or `Quote`) link to that type, instead of showing the whole structure
 *    inline: those names alias the generated document types, and TypeScript forgets such aliases.
 * 3. Group every module's exports the way users look for them (see {@link groupOf}): Client,
 *    Resources, Errors, Pagination, Webhooks, Wallet, Sandbox, Options, API types, Helpers;
 *    never TypeDoc's groups by kind (Classes, Functions, Interfaces, …), re-exports included.
 * 4. The guides of docs/ included as project documents are titled by their first heading, under "Guides".
 */
import { Comment, CommentTag, Converter, ReflectionGroup, ReflectionKind } from 'typedoc';
import ts from 'typescript';

/** The file whose type aliases name the API's shapes. */
const API_TYPES = /[\\/]src[\\/]types\.ts$/;

/**
 * True when `node` mentions a type alias declared in src/types.ts.
 * @param {ts.TypeChecker} checker @param {ts.Node} node
 */
function mentionsApiType(checker, node) {
  let found = false;
  /** @param {ts.Node} n */
  const visit = (n) => {
    if (found) return;
    if (ts.isTypeReferenceNode(n)) {
      let symbol = checker.getSymbolAtLocation(n.typeName);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      if (symbol && symbol.flags & ts.SymbolFlags.TypeAlias && symbol.declarations?.some((d) => API_TYPES.test(d.getSourceFile().fileName))) {
        found = true;
        return;
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const reflection of Object.values(context.project.reflections)) {
      const signatures = 'signatures' in reflection && Array.isArray(reflection.signatures) ? reflection.signatures : [];
      for (const comment of [reflection.comment, ...signatures.map((s) => s.comment)]) {
        const tag = comment?.getTag('@description');
        if (!comment || !tag) continue;
        if (comment.summary.length === 0) comment.summary = tag.content;
        comment.removeTags('@description');
      }
    }
  });

  // Signatures and their parameters: converted from the checker's types, so re-convert the written annotation.
  app.converter.on(Converter.EVENT_CREATE_SIGNATURE, (context, signature, declaration) => {
    if (!declaration || !ts.isFunctionLike(declaration) || !('kindOf' in signature)) return;
    const scope = signature.parent === context.scope ? context.withScope(signature) : undefined;
    if (!scope) return;
    declaration.parameters.forEach((parameter, i) => {
      const reflection = signature.parameters?.[i];
      if (reflection && parameter.type && mentionsApiType(context.checker, parameter.type)) {
        reflection.type = context.converter.convertType(scope.withScope(reflection), parameter.type);
      }
    });
    if (declaration.type && mentionsApiType(context.checker, declaration.type)) {
      signature.type = context.converter.convertType(scope, declaration.type);
    }
  });
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    if (!reflection.kindOf(ReflectionKind.Property)) return;
    const declaration = context.getSymbolFromReflection(reflection)?.valueDeclaration;
    if (!declaration || !(ts.isPropertyDeclaration(declaration) || ts.isPropertySignature(declaration)) || !declaration.type) return;
    if (reflection.parent === context.scope && mentionsApiType(context.checker, declaration.type)) {
      reflection.type = context.converter.convertType(context.withScope(reflection), declaration.type);
    }
  });

  // The guides (typedoc.json `projectDocuments`): titled by their first heading, grouped as "Guides".
  app.converter.on(Converter.EVENT_CREATE_DOCUMENT, (_context, document) => {
    const heading = /^# +(.+)$/m.exec(document.content.map((part) => part.text).join(''));
    if (heading) document.name = heading[1].trim();
    document.frontmatter.group ??= 'Guides';
  });

  // Where each exported declaration is written: the grouping below goes by source file.
  /** @type {Map<import('typedoc').Reflection, string>} */
  const files = new Map();
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    const file = context.getSymbolFromReflection(reflection)?.declarations?.[0]?.getSourceFile().fileName;
    if (file) files.set(reflection, file.replace(/\\/g, '/'));
  });

  // Before TypeDoc's own grouping, which runs at RESOLVE_END with priority -100.
  app.converter.on(Converter.EVENT_RESOLVE_END, (context) => {
    /** @type {import('typedoc').DeclarationReflection[]} */
    const classes = /** @type {any[]} */ (context.project.getReflectionsByKind(ReflectionKind.Class));
    const parents = new Map(classes.map((c) => [c.name, (c.extendedTypes ?? []).map((t) => t.toString())]));
    /** @param {string} name @param {string} ancestor @returns {boolean} */
    const descends = (name, ancestor, depth = 0) => depth < 20 && (parents.get(name) ?? []).some((p) => p === ancestor || descends(p, ancestor, depth + 1));
    for (const module of context.project.getReflectionsByKind(ReflectionKind.Module)) {
      for (const reflection of /** @type {import('typedoc').DeclarationReflection} */ (module).children ?? []) {
        if (!reflection.isDeclaration() || hasGroupTag(reflection)) continue;
        const group = groupOf(reflection, files.get(reflection) ?? '', descends);
        if (!group) continue;
        // Functions carry their comment on the signature; TypeDoc reads `@group` from either.
        reflection.comment ??= new Comment();
        reflection.comment.blockTags.push(new CommentTag('@group', [{ kind: 'text', text: group }]));
      }
    }
  });

  // After TypeDoc's grouping: a re-export (the wallet entry's `Signer`, …) joins the group of what it
  // re-exports instead of a "References" group, and each module group lists classes, then functions,
  // then the rest, each by name.
  app.converter.on(
    Converter.EVENT_RESOLVE_END,
    (context) => {
      const order = /** @type {string[]} */ (app.options.getValue('groupOrder'));
      const weight = (/** @type {string} */ title) => (order.includes(title) ? order.indexOf(title) : order.indexOf('*'));
      for (const module of /** @type {import('typedoc').DeclarationReflection[]} */ (context.project.getReflectionsByKind(ReflectionKind.Module))) {
        if (!module.groups) continue;
        /** @type {Map<string, ReflectionGroup>} */
        const groups = new Map();
        for (const group of module.groups) {
          for (const child of group.children) {
            const target = child.isReference() ? child.tryGetTargetReflectionDeep() : undefined;
            const title = (target && groupTagOf(target)) ?? group.title;
            let into = groups.get(title);
            if (!into) groups.set(title, (into = new ReflectionGroup(title, child)));
            into.children.push(child);
          }
        }
        // Keep each group's `@groupDescription`.
        for (const group of module.groups) {
          const into = groups.get(group.title);
          if (into && group.description) into.description = group.description;
        }
        // What you call first (classes, then functions), then the types and constants, each by name.
        const rank = (/** @type {import('typedoc').Reflection} */ r) => {
          const target = r.isReference() ? (r.tryGetTargetReflectionDeep() ?? r) : r;
          return target.kindOf(ReflectionKind.Class) ? 0 : target.kindOf(ReflectionKind.Function) ? 1 : 2;
        };
        for (const group of groups.values()) {
          group.children.sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.kind - b.kind);
        }
        // An entry named after a topic (`crossborder-sdk/wallet`, `…/sandbox`) opens with that topic's group.
        const segments = module.name.toLowerCase().split('/').slice(1);
        const own = (/** @type {ReflectionGroup} */ g) => (segments.includes(g.title.toLowerCase()) ? -1 : 0);
        module.groups = [...groups.values()].sort((a, b) => own(a) - own(b) || weight(a.title) - weight(b.title));
      }
    },
    -200,
  );
}

/** @param {import('typedoc').Reflection} reflection @returns {string | undefined} */
function groupTagOf(reflection) {
  const comments = [
    reflection.comment,
    ...('signatures' in reflection && Array.isArray(reflection.signatures) ? reflection.signatures.map((s) => s.comment) : []),
  ];
  for (const comment of comments) {
    const tag = comment?.getTag('@group');
    if (tag)
      return tag.content
        .map((part) => part.text)
        .join('')
        .trim();
  }
  return undefined;
}

/** @param {import('typedoc').Reflection} reflection */
const hasGroupTag = (reflection) => groupTagOf(reflection) !== undefined;

/** Generated API shapes that belong with a topic rather than with the other API types. */
const TOPIC_OF_API_TYPE = {
  ErrorBody: 'Errors',
  ErrorCode: 'Errors',
  ListEnvelopeFields: 'Pagination',
  WebhookEvent: 'Webhooks',
};

/**
 * The group of a module's export, by what it is and where it is written:
 * - Client: `Crossborder`, and the client's own types and constants (src/client.ts, src/core/);
 * - Resources: the classes behind `cb.customers` etc. (they extend `APIResource`), and their helpers;
 * - Errors: every error class, and the types errors carry (src/core/errors.ts and error-base.ts, `ErrorCode`);
 * - Pagination: `Page`, `PagePromise` and the list envelope;
 * - Webhooks: verification, events (`WebhookEvent`, `…Event`), approval replies, deduplication;
 * - Wallet: src/wallet/, the wallet helpers the main entry re-exports, and `Signer`;
 * - Sandbox: src/sandbox/;
 * - Options: the options objects of the client and its methods (`…Options`);
 * - API types: the shapes of the API (src/generated/named.ts and src/types.ts);
 * - Helpers: src/helpers/ (money).
 * @param {import('typedoc').DeclarationReflection} reflection
 * @param {string} file
 * @param {(name: string, ancestor: string) => boolean} descends
 * @returns {string | undefined}
 */
function groupOf(reflection, file, descends) {
  const { name } = reflection;
  if (reflection.kindOf(ReflectionKind.Class)) {
    if (name === 'Crossborder') return 'Client';
    if (descends(name, 'APIResource')) return 'Resources';
    if (name === 'CrossborderError' || descends(name, 'Error')) return 'Errors';
  }
  if (name === 'Signer') return 'Wallet'; // the device side of the signed retry, whichever entry exports it
  if (/Options$/.test(name) && !reflection.kindOf(ReflectionKind.Class)) return 'Options';
  if (/\/src\/(generated\/named|types)\.ts$/.test(file)) {
    if (name in TOPIC_OF_API_TYPE) return TOPIC_OF_API_TYPE[/** @type {keyof typeof TOPIC_OF_API_TYPE} */ (name)];
    if (/Event$/.test(name) || /^PaymentApproval/.test(name)) return 'Webhooks';
    return 'API types';
  }
  // The operation table's public types (OperationId, OperationRow): what `call`/`list` and the standalone functions take.
  if (/\/src\/generated\/operations\.ts$/.test(file)) return 'API types';
  if (/\/src\/(core\/(errors|error-base)|errors)\.ts$/.test(file)) return 'Errors';
  if (/\/src\/core\/pagination\.ts$/.test(file)) return 'Pagination';
  if (/\/src\/(webhooks\/|sandbox\/domain\/webhooks\.ts$|resources\/webhooks\.ts$)/.test(file)) return 'Webhooks';
  if (/\/src\/wallet\//.test(file)) return 'Wallet';
  if (/\/src\/(sandbox\/|helpers\/sandbox-controls\.ts$)/.test(file)) return 'Sandbox';
  if (/\/src\/payouts\//.test(file)) return 'Payouts';
  if (/\/src\/resources\//.test(file)) return 'Resources';
  if (/\/src\/helpers\//.test(file)) return 'Helpers';
  if (/\/src\/(client|core\/[^/]+)\.ts$/.test(file)) return 'Client';
  return undefined;
}
