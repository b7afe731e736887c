// @ts-check
/**
 * TypeDoc plugin for the crossborder-sdk reference (loaded by typedoc.json).
 *
 * 1. The generated API types (openapi-typescript) describe fields with a JSDoc `@description`
 *    tag: show that text as the field's summary instead of under a "Description" heading.
 * 2. Parameters, return types and properties written with a name from `src/types.ts` (such as
 *    `QuoteCreateParams` or `Quote`) link to that type, instead of showing the whole structure
 *    inline: those names alias the generated document types, and TypeScript forgets such aliases.
 * 3. Group each module's classes the way users look for them: the client, the resource classes
 *    behind `cb.customers` etc. (they extend `APIResource`), and the errors (they extend `Error`).
 *    Everything else keeps TypeDoc's groups by kind.
 */
import { Comment, CommentTag, Converter, ReflectionKind } from 'typedoc';
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

  // Before TypeDoc's own grouping, which runs at RESOLVE_END with priority -100.
  app.converter.on(Converter.EVENT_RESOLVE_END, (context) => {
    /** @type {import('typedoc').DeclarationReflection[]} */
    const classes = /** @type {any[]} */ (context.project.getReflectionsByKind(ReflectionKind.Class));
    const parents = new Map(classes.map((c) => [c.name, (c.extendedTypes ?? []).map((t) => t.toString())]));
    /** @param {string} name @param {string} ancestor @returns {boolean} */
    const descends = (name, ancestor, depth = 0) =>
      depth < 20 && (parents.get(name) ?? []).some((p) => p === ancestor || descends(p, ancestor, depth + 1));
    for (const reflection of classes) {
      const group =
        reflection.name === 'Crossborder' ? 'Client'
        : descends(reflection.name, 'APIResource') ? 'Resources'
        : reflection.name === 'CrossborderError' || descends(reflection.name, 'Error') ? 'Errors'
        : undefined;
      if (!group) continue;
      reflection.comment ??= new Comment();
      reflection.comment.blockTags.push(new CommentTag('@group', [{ kind: 'text', text: group }]));
    }
  });
}
