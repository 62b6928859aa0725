import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Finds every message the server can answer an error with, by reading server/src: the message of
 * `new HttpError(status, msg)` (and `badRequest`, `notFound`, `forbidden`, `errorBody`), the zod messages
 * of the request schemas, and `res.status(4xx/5xx).json({ msg })`. A message is a constant, a template
 * (its `${…}` parts become `{}` wildcards) or, when it is only known at run time, `dynamic`.
 */
export interface MessageSite {
  file: string;
  line: number;
  /** Literal texts, or templates with `\u0000` where a variable part goes. */
  messages: string[];
  /** Set when part of the message could not be followed to a constant (a value read at run time). */
  dynamic?: string;
  /** The site passes its own `code`, so no catalogue entry is needed. */
  explicitCode?: boolean;
}

export const HOLE = '\u0000';

const ROOT = path.resolve(__dirname, '../..');
/** Where answers come from: the server, and the shared parsers whose failure messages it answers with. */
const SCANNED = ['server/src', 'common/phone.ts'];
/** Start-up and command-line code: its messages go to the operator's terminal, never into an HTTP answer. */
const NOT_ANSWERS = ['server/src/config.ts', 'server/src/main.ts', 'server/src/auth/operator.ts', 'server/src/cli/'];
const ERROR_FACTORIES: Record<string, number> = { badRequest: 0, notFound: 0, forbidden: 0, errorBody: 0 };
const ZOD_METHODS = new Set([
  'min',
  'max',
  'int',
  'positive',
  'nonnegative',
  'negative',
  'nonpositive',
  'gte',
  'lte',
  'gt',
  'lt',
  'regex',
  'email',
  'url',
  'uuid',
  'refine',
  'nonempty',
  'finite',
  'multipleOf',
]);
const ZOD_OPTION_CALLS = new Set(['string', 'number', 'boolean', 'enum', 'nativeEnum', 'literal', 'array', 'date', 'bigint', 'union', 'addIssue', 'refine', 'superRefine', 'custom', 'coerce']);
/** Errors whose first argument is the message answered (subclasses of HttpError that take only a message). */
const MESSAGE_ERRORS = new Set(['ButtonError']);

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

type Found = { messages: string[]; dynamic: string[] };
const none = (): Found => ({ messages: [], dynamic: [] });
const merge = (a: Found, b: Found): Found => ({ messages: [...a.messages, ...b.messages], dynamic: [...a.dynamic, ...b.dynamic] });
const dynamicOf = (e: ts.Node): Found => ({ messages: [], dynamic: [e.getText().replace(/\s+/g, ' ').slice(0, 80)] });

const stripAs = (e: ts.Expression): ts.Expression =>
  ts.isAsExpression(e) || ts.isParenthesizedExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e) ? stripAs(e.expression) : e;

const isFunction = (n: ts.Node): n is ts.FunctionLikeDeclaration =>
  ts.isFunctionDeclaration(n) || ts.isArrowFunction(n) || ts.isFunctionExpression(n) || ts.isMethodDeclaration(n) || ts.isConstructorDeclaration(n);

/** What a name stands for where it is used: a constant's value, a function, or a parameter of the enclosing function. */
type Binding =
  | { kind: 'value'; expr: ts.Expression }
  | { kind: 'function'; fn: ts.FunctionLikeDeclaration }
  | { kind: 'param'; fn: ts.FunctionLikeDeclaration; index: number }
  | undefined;

export function scanErrorMessages(): MessageSite[] {
  const files = [...sourceFiles(path.join(ROOT, 'server/src')), ...sourceFiles(path.join(ROOT, 'common'))];
  const byFile = new Map(files.map((f) => [f, ts.createSourceFile(f, fs.readFileSync(f, 'utf8'), ts.ScriptTarget.ES2022, true)]));

  function declaredIn(statements: ts.NodeArray<ts.Statement>, name: string): Binding {
    for (const st of statements) {
      if (ts.isFunctionDeclaration(st) && st.name?.text === name) return { kind: 'function', fn: st };
      if (!ts.isVariableStatement(st)) continue;
      for (const d of st.declarationList.declarations) {
        if (!ts.isIdentifier(d.name) || d.name.text !== name || !d.initializer) continue;
        const init = stripAs(d.initializer);
        return ts.isArrowFunction(init) || ts.isFunctionExpression(init) ? { kind: 'function', fn: init } : { kind: 'value', expr: d.initializer };
      }
    }
    return undefined;
  }

  function exported(file: string, name: string): Binding {
    const sf = byFile.get(file) ?? byFile.get(`${file}.ts`) ?? byFile.get(path.join(file, 'index.ts'));
    return sf ? declaredIn(sf.statements, name) : undefined;
  }

  /** Lexical lookup: enclosing blocks and functions, then the file, then what the file imports by relative path. */
  function bind(id: ts.Identifier): Binding {
    const name = id.text;
    for (let n: ts.Node | undefined = id.parent; n; n = n.parent) {
      if (isFunction(n)) {
        const index = n.parameters.findIndex((p) => ts.isIdentifier(p.name) && p.name.text === name);
        if (index >= 0) return { kind: 'param', fn: n, index };
      }
      const statements = ts.isBlock(n) || ts.isSourceFile(n) || ts.isModuleBlock(n) || ts.isCaseClause(n) ? n.statements : undefined;
      const found = statements && declaredIn(statements, name);
      if (found) return found;
      if (ts.isSourceFile(n)) {
        for (const st of n.statements) {
          if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier) || !st.moduleSpecifier.text.startsWith('.')) continue;
          const named = st.importClause?.namedBindings;
          if (!named || !ts.isNamedImports(named)) continue;
          const spec = named.elements.find((e) => e.name.text === name);
          if (spec) return exported(path.resolve(path.dirname(n.fileName), st.moduleSpecifier.text), (spec.propertyName ?? spec.name).text);
        }
      }
    }
    return undefined;
  }

  /** The literal a constant name, or a property of a constant object, stands for (`FIELD_LABELS.price`). */
  function constantOf(expr: ts.Expression): ts.Expression | undefined {
    const e = stripAs(expr);
    if (ts.isIdentifier(e)) {
      const b = bind(e);
      return b?.kind === 'value' ? stripAs(b.expr) : undefined;
    }
    if (!ts.isPropertyAccessExpression(e)) return undefined;
    const obj = constantOf(e.expression);
    const prop = obj && ts.isObjectLiteralExpression(obj) ? obj.properties.find((p) => p.name?.getText() === e.name.text) : undefined;
    return prop && ts.isPropertyAssignment(prop) ? stripAs(prop.initializer) : undefined;
  }

  /** `FIELD_LABELS.price[0]`: one item of a constant list, else undefined. */
  function listItemOf(e: ts.Expression): ts.Expression | undefined {
    if (!ts.isElementAccessExpression(e) || !ts.isNumericLiteral(e.argumentExpression)) return undefined;
    const list = constantOf(e.expression);
    return list && ts.isArrayLiteralExpression(list) ? list.elements[Number(e.argumentExpression.text)] : undefined;
  }

  /** The texts an expression can be: literals, templates with holes, or a note of what stays unknown. */
  function resolve(expr: ts.Expression, depth = 0, holes: ReadonlySet<ts.FunctionLikeDeclaration> = new Set()): Found {
    const e = stripAs(expr);
    if (depth > 12) return dynamicOf(e);
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return { messages: [e.text], dynamic: [] };
    if (ts.isTemplateExpression(e)) {
      // Each `${…}` is a variable part, unless it is a constant text.
      let texts = [e.head.text];
      for (const span of e.templateSpans) {
        const inner = stripAs(span.expression);
        const known = ts.isIdentifier(inner) || listItemOf(inner) ? resolve(inner, depth + 1, holes) : dynamicOf(inner);
        const parts = known.dynamic.length === 0 && known.messages.length > 0 && !known.messages.some((m) => m.includes(HOLE)) ? known.messages : [HOLE];
        texts = texts.flatMap((t) => parts.map((p) => t + p + span.literal.text));
      }
      return { messages: texts, dynamic: [] };
    }
    if (ts.isConditionalExpression(e)) return merge(resolve(e.whenTrue, depth + 1, holes), resolve(e.whenFalse, depth + 1, holes));
    if (ts.isBinaryExpression(e) && (e.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken || e.operatorToken.kind === ts.SyntaxKind.BarBarToken)) {
      return merge(resolve(e.left, depth + 1, holes), resolve(e.right, depth + 1, holes));
    }
    if (ts.isIdentifier(e)) {
      const b = bind(e);
      if (!b) return dynamicOf(e);
      if (b.kind === 'value') return resolve(b.expr, depth + 1, holes);
      if (b.kind === 'param') return holes.has(b.fn) ? { messages: [HOLE], dynamic: [] } : argumentsOf(b.fn, b.index, depth + 1) ?? dynamicOf(e);
      return dynamicOf(e);
    }
    if (ts.isPropertyAccessExpression(e) && ts.isIdentifier(stripAs(e.expression))) {
      // `MSG.self`: the property of a constant object.
      const b = bind(stripAs(e.expression) as ts.Identifier);
      const obj = b?.kind === 'value' ? stripAs(b.expr) : undefined;
      const prop = obj && ts.isObjectLiteralExpression(obj) ? obj.properties.find((p) => p.name?.getText() === e.name.text) : undefined;
      return prop && ts.isPropertyAssignment(prop) ? resolve(prop.initializer, depth + 1, holes) : dynamicOf(e);
    }
    const item = listItemOf(e);
    if (item) return resolve(item, depth + 1, holes);
    if (ts.isElementAccessExpression(e) && ts.isIdentifier(stripAs(e.expression))) {
      // `TEXTS[key]`: every value of the constant object.
      const b = bind(stripAs(e.expression) as ts.Identifier);
      const obj = b?.kind === 'value' ? stripAs(b.expr) : undefined;
      if (!obj || !ts.isObjectLiteralExpression(obj)) return dynamicOf(e);
      return obj.properties.filter(ts.isPropertyAssignment).map((p) => resolve(p.initializer, depth + 1, holes)).reduce(merge, none());
    }
    if (ts.isCallExpression(e) && ts.isIdentifier(e.expression)) {
      // A small message builder such as `tooLarge(label, max)`: what it returns, its parameters as variable parts.
      const b = bind(e.expression);
      if (b?.kind !== 'function' || !b.fn.body) return dynamicOf(e);
      const returns: ts.Expression[] = [];
      const body = b.fn.body;
      if (!ts.isBlock(body)) returns.push(body as ts.Expression);
      else
        body.forEachChild(function walk(n): void {
          if (ts.isReturnStatement(n) && n.expression) returns.push(n.expression);
          else if (!ts.isFunctionLike(n)) n.forEachChild(walk);
        });
      return returns.map((r) => resolve(r, depth + 1, new Set([...holes, b.fn]))).reduce(merge, none());
    }
    return dynamicOf(e);
  }

  /** A parameter's values: its default and the matching argument of every call of its function in the same file. */
  function argumentsOf(fn: ts.FunctionLikeDeclaration, index: number, depth: number): Found | undefined {
    const decl = fn.parent;
    const name = ts.isFunctionDeclaration(fn) && fn.name ? fn.name.text : ts.isVariableDeclaration(decl) && ts.isIdentifier(decl.name) ? decl.name.text : undefined;
    if (!name) return undefined;
    const initializer = fn.parameters[index]?.initializer;
    let found = initializer ? resolve(initializer, depth) : none();
    let calls = 0;
    // The calls in its own file, and in the files that import it (under whatever local name).
    const home = fn.getSourceFile();
    const callers: Array<[ts.SourceFile, string]> = [[home, name]];
    for (const sf of byFile.values()) {
      for (const st of sf.statements) {
        if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier) || !st.moduleSpecifier.text.startsWith('.')) continue;
        const target = path.resolve(path.dirname(sf.fileName), st.moduleSpecifier.text);
        if (home.fileName !== `${target}.ts` && home.fileName !== path.join(target, 'index.ts')) continue;
        const named = st.importClause?.namedBindings;
        if (!named || !ts.isNamedImports(named)) continue;
        for (const e of named.elements) if ((e.propertyName ?? e.name).text === name) callers.push([sf, e.name.text]);
      }
    }
    for (const [sf, local] of callers) {
      sf.forEachChild(function walk(n): void {
        if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === local) {
          calls += 1;
          const arg = n.arguments[index];
          if (arg) found = merge(found, resolve(arg, depth));
        }
        n.forEachChild(walk);
      });
    }
    return calls > 0 ? found : undefined;
  }

  const sites: MessageSite[] = [];
  const add = (node: ts.Node, expr: ts.Expression | undefined, explicitCode = false) => {
    if (!expr) return;
    const found = resolve(expr);
    const sf = node.getSourceFile();
    sites.push({
      file: path.relative(ROOT, sf.fileName),
      line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1,
      messages: [...new Set(found.messages)],
      ...(found.dynamic.length ? { dynamic: [...new Set(found.dynamic)].join(', ') } : {}),
      ...(explicitCode ? { explicitCode } : {}),
    });
  };
  const propertyOf = (o: ts.Expression | undefined, name: string) => {
    const obj = o && stripAs(o);
    return obj && ts.isObjectLiteralExpression(obj) ? obj.properties.find((p) => p.name?.getText() === name) : undefined;
  };
  // A catalogue code is a text; the spec's numbers (`{ code: 1 }` for a missing bank account) are not
  // one, so the client still finds the message's text by the message.
  const hasCode = (o: ts.Expression | undefined) => {
    const p = propertyOf(o, 'code');
    return p !== undefined && ts.isPropertyAssignment(p) && resolve(p.initializer).messages.length > 0;
  };
  const calleeName = (c: ts.CallExpression) => (ts.isIdentifier(c.expression) ? c.expression.text : ts.isPropertyAccessExpression(c.expression) ? c.expression.name.text : '');
  const isText = (a: ts.Expression) => ts.isStringLiteral(a) || ts.isTemplateExpression(a) || ts.isNoSubstitutionTemplateLiteral(a);

  for (const sf of byFile.values()) {
    if (!SCANNED.some((dir) => sf.fileName.startsWith(path.join(ROOT, dir)))) continue;
    if (NOT_ANSWERS.some((f) => sf.fileName.startsWith(path.join(ROOT, f)))) continue;
    const visit = (node: ts.Node) => {
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'HttpError' && node.arguments) {
        // The message of a thrown error; a message passed through as a parameter is followed to its callers.
        const arg = node.arguments[1];
        const b = arg && ts.isIdentifier(stripAs(arg)) ? bind(stripAs(arg) as ts.Identifier) : undefined;
        if (b?.kind !== 'param' || argumentsOf(b.fn, b.index, 0)) add(node, arg, hasCode(node.arguments[2]));
      } else if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && MESSAGE_ERRORS.has(node.expression.text) && node.arguments) {
        add(node, node.arguments[0]);
      } else if (
        ts.isBinaryExpression(node) &&
        node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
        (ts.isPropertyAccessExpression(node.left) || ts.isElementAccessExpression(node.left)) &&
        node.left.expression.getText() === 'errors'
      ) {
        // A field error collected before the answer: `errors.password2 = 'Passwords do not match.'`.
        add(node, node.right);
      } else if (ts.isCallExpression(node)) {
        const name = calleeName(node);
        if (ts.isIdentifier(node.expression) && name in ERROR_FACTORIES) add(node, node.arguments[ERROR_FACTORIES[name]!], hasCode(node.arguments[1]));
        // zod: `.min(1, 'Name is required.')`, `.max(n, tooLarge('Price', n))`.
        if (ts.isPropertyAccessExpression(node.expression) && ZOD_METHODS.has(name)) {
          for (const arg of node.arguments) {
            const a = stripAs(arg);
            if (isText(a) || (ts.isCallExpression(a) && ts.isIdentifier(a.expression) && bind(a.expression)?.kind === 'function')) add(a, a);
            else if (ts.isIdentifier(a)) {
              // A constant text, or a message handed in as a `string` parameter (`wholeNumber(message)`).
              const b = bind(a);
              const stringParam = b?.kind === 'param' && b.fn.parameters[b.index]?.type?.kind === ts.SyntaxKind.StringKeyword;
              const r = resolve(a);
              if (stringParam || (r.messages.length > 0 && r.messages.some((m) => /[a-z]{3}/i.test(m)))) add(a, a);
            }
          }
        }
        // zod: `z.number({ message })`, `ctx.addIssue({ message })`.
        if (name !== 'object' && (ZOD_OPTION_CALLS.has(name) || (ts.isPropertyAccessExpression(node.expression) && node.expression.expression.getText() === 'z'))) {
          for (const arg of node.arguments) {
            const p = propertyOf(arg, 'message');
            if (p && ts.isPropertyAssignment(p)) add(p, p.initializer);
            else if (p && ts.isShorthandPropertyAssignment(p)) add(p, p.name);
          }
        }
        // `res.status(4xx).json({ msg })`
        if (name === 'json' && ts.isPropertyAccessExpression(node.expression)) {
          const target = stripAs(node.expression.expression);
          if (ts.isCallExpression(target) && calleeName(target) === 'status') {
            const status = target.arguments[0];
            const code = status && ts.isNumericLiteral(status) ? Number(status.text) : NaN;
            const msg = propertyOf(node.arguments[0], 'msg');
            if (code >= 400 && msg && ts.isPropertyAssignment(msg)) add(node, msg.initializer, hasCode(node.arguments[0]));
          }
        }
      } else if (ts.isObjectLiteralExpression(node)) {
        // Messages handed to shared code that throws them: upload options, job specs, `{ ok: false, message }` results.
        for (const p of node.properties) {
          if (!ts.isPropertyAssignment(p) && !ts.isShorthandPropertyAssignment(p)) continue;
          const key = p.name.getText();
          const value = ts.isPropertyAssignment(p) ? p.initializer : p.name;
          const failure = propertyOf(node, 'ok')?.getText().endsWith('false');
          if (['typeMsg', 'tooLargeMsg', 'notFound', 'finishedMessage'].includes(key) || (key === 'message' && failure)) add(p, value);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return sites;
}
