// Recursive descent over C declarations: declaration specifiers, declarators (pointers, arrays, function
// pointers, nested declarators), parameter lists, typedefs, and struct, union and enum definitions laid out
// for the scope's data model. Declarators are read outside-in and applied inside-out: each returns a
// function from the type it is applied to to the declared type, so `void (*signal(int, void (*)(int)))(int)`
// needs no special case.
import {
  formatType,
  pointerTo,
  resolve,
  tableKey,
  type CType,
  type Param,
  type Prototype,
  type TypeDefinition,
} from '../ctype.js';
import { BASE_KEYWORDS, baseType, type KeywordCounts } from './base-types.js';
import { constantExpression } from './constant-expression.js';
import { builtinTypes, MODEL_SIZES } from './data-model.js';
import { layout } from './layout.js';
import type { DeclarationScope } from './scope.js';
import type { Token, TokenStream } from './tokens.js';
import { classifyWord, isUnsupportedConvention, type Word } from './words.js';

export interface FunctionDeclaration {
  name: string;
  prototype: Prototype;
  /** The declaration said `__stdcall` (or WINAPI, NTAPI, CALLBACK…); the type model has no convention. */
  stdcall: boolean;
  noReturn: boolean;
  line: number;
}

interface Specifiers {
  type: CType;
  typedef: boolean;
  stdcall: boolean;
  noReturn: boolean;
  /** A struct, union or enum was named or defined: the declaration may then have no declarator. */
  tagged: boolean;
}

interface Declarator {
  name: Token | null;
  derive: (base: CType) => CType;
  /** A convention written at the level of the declarator that holds the name. */
  stdcall: boolean;
  noReturn: boolean;
}

type Tagged = Extract<CType, { kind: 'struct' | 'union' | 'enum' }>;
type Mode = 'named' | 'abstract' | 'either';

const TAG_KEYWORDS = new Set(['struct', 'union', 'enum']);

/** What a typedef name stands for (its own node for other types). */
const resolveTypedef = (t: CType): CType => (t.kind === 'typedef' ? t.to : t);

/** Through qualifiers, arrays and pointers to the type a declarator was applied to. */
function core(t: CType): CType {
  let c = t;
  while (c.kind === 'const' || c.kind === 'volatile' || c.kind === 'pointer' || c.kind === 'array')
    c = c.kind === 'array' ? c.of : c.to;
  return c;
}

export class Parser {
  readonly functions: FunctionDeclaration[] = [];
  /** Definitions without a tag yet, by type object: named by the typedef or member that uses them. */
  private readonly pending = new Map<CType, { def: TypeDefinition; at: Token }>();
  private readonly builtins: ReadonlyMap<string, CType>;
  private readonly pointerSize: 4 | 8;

  constructor(
    private readonly ts: TokenStream,
    private readonly scope: DeclarationScope,
  ) {
    this.builtins = builtinTypes(scope.dataModel);
    this.pointerSize = MODEL_SIZES[scope.dataModel].pointer;
  }

  translationUnit(): void {
    while (this.ts.peek().kind !== 'eof') {
      if (this.ts.accept(';')) continue;
      this.ts.declarationStart = this.ts.peek().offset;
      this.externalDeclaration();
      this.nameLeftovers();
    }
  }

  /** A type name alone (`const char *`, `void (*)(int)`), as a cast or sizeof would spell it. */
  typeName(): CType {
    const spec = this.specifiers();
    const type = this.declarator('abstract').derive(spec.type);
    if (this.ts.peek().kind !== 'eof') this.ts.fail(`unexpected '${this.ts.peek().text}' after a type name`);
    this.nameLeftovers();
    return type;
  }

  private externalDeclaration(): void {
    const first = this.ts.peek();
    const spec = this.specifiers();
    if (this.ts.accept(';')) {
      if (!spec.tagged) this.ts.fail('the declaration declares nothing', first);
      return;
    }
    do {
      const d = this.declarator('named');
      const name = d.name!;
      const type = d.derive(spec.type);
      if (this.ts.at('{')) this.ts.fail('function bodies are not supported');
      if (this.ts.at('=')) this.ts.fail('initialisers are not supported');
      if (spec.typedef) this.defineTypedef(name, type);
      else {
        const r = resolve(type);
        // Objects (`extern int errno;`) are read and dropped: the database holds functions.
        if (r.kind === 'function')
          this.functions.push({
            name: name.text,
            prototype: r.proto,
            stdcall: spec.stdcall || d.stdcall,
            noReturn: spec.noReturn || d.noReturn,
            line: name.line,
          });
      }
    } while (this.ts.accept(','));
    this.ts.expect(';', 'after a declaration');
  }

  private defineTypedef(name: Token, type: CType): void {
    this.nameAnonymous(core(type), name.text);
    const existing = this.scope.typedefs.get(name.text);
    if (existing?.kind === 'typedef' && formatType(existing.to) === formatType(type)) return;
    if (existing)
      this.ts.fail(`typedef ${name.text} is already defined as ${formatType(resolveTypedef(existing))}`, name);
    this.scope.typedefs.set(name.text, { kind: 'typedef', name: name.text, to: type });
  }

  /** Consumes a qualifier, convention, annotation or storage word (with its arguments), or returns null. */
  private word(): Word | null {
    const t = this.ts.peek();
    if (t.kind !== 'ident') return null;
    if (isUnsupportedConvention(t.text)) this.ts.fail(`the calling convention ${t.text} is not supported`);
    const w = classifyWord(t.text);
    if (!w) return null;
    this.ts.next();
    if (w.kind !== 'annotation') return w;
    if (!this.ts.at('(')) {
      if (w.arguments === 'required') this.ts.fail(`expected '(' after ${t.text}`);
      return w;
    }
    const args = this.balanced();
    return args.includes('noreturn') || args.includes('__noreturn__') ? { kind: 'noreturn' } : w;
  }

  /** The words of a balanced parenthesised group, which the cursor is at. */
  private balanced(): string[] {
    const open = this.ts.next();
    const words: string[] = [];
    for (let depth = 1; depth > 0;) {
      const t = this.ts.next();
      if (t.kind === 'eof') this.ts.fail('unbalanced parentheses', open);
      if (t.text === '(') depth++;
      else if (t.text === ')') depth--;
      words.push(t.text);
    }
    return words;
  }

  private specifiers(): Specifiers {
    const start = this.ts.peek();
    const counts: KeywordCounts = new Map();
    const spec = { typedef: false, stdcall: false, noReturn: false, tagged: false };
    let named: CType | null = null;
    let isConst = false;
    let isVolatile = false;
    for (;;) {
      const w = this.word();
      if (w) {
        if (w.kind === 'typedef') spec.typedef = true;
        else if (w.kind === 'convention') spec.stdcall ||= w.stdcall;
        else if (w.kind === 'noreturn') spec.noReturn = true;
        else if (w.kind === 'qualifier') {
          isConst ||= w.qualifier === 'const';
          isVolatile ||= w.qualifier === 'volatile';
        }
        continue;
      }
      const t = this.ts.peek();
      if (t.kind !== 'ident') break;
      if (BASE_KEYWORDS.has(t.text)) {
        if (named) this.ts.fail(`'${t.text}' after a type name`);
        counts.set(t.text, (counts.get(t.text) ?? 0) + 1);
        this.ts.next();
      } else if (TAG_KEYWORDS.has(t.text)) {
        if (named || counts.size) this.ts.fail(`'${t.text}' after a type`);
        named = this.tagged(t.text as Tagged['kind']);
        spec.tagged = true;
      } else if (!named && counts.size === 0) {
        named = this.scope.typedefs.get(t.text) ?? this.builtins.get(t.text) ?? null;
        if (!named) this.ts.fail(`unknown type name '${t.text}'`);
        this.ts.next();
      } else break;
    }
    if (!named && counts.size === 0) this.ts.fail(`expected a type, found '${this.ts.peek().text}'`, start);
    let type = named ?? baseType(counts, this.scope.dataModel);
    if (typeof type === 'string') this.ts.fail(type, start);
    if (isVolatile) type = { kind: 'volatile', to: type };
    if (isConst) type = { kind: 'const', to: type };
    return { ...spec, type };
  }

  private declarator(mode: Mode): Declarator {
    const pointers: { isConst: boolean; isVolatile: boolean }[] = [];
    let stdcall = false;
    let noReturn = false;
    const applyWord = (w: Word) => {
      if (w.kind === 'convention') stdcall ||= w.stdcall;
      else if (w.kind === 'noreturn') noReturn = true;
      else if (w.kind === 'typedef') this.ts.fail("'typedef' inside a declarator");
      else if (w.kind === 'qualifier' && w.qualifier !== 'restrict') {
        const p = pointers.at(-1);
        if (!p) this.ts.fail(`'${w.qualifier}' inside a declarator qualifies no pointer`);
        if (w.qualifier === 'const') p.isConst = true;
        else p.isVolatile = true;
      }
    };
    for (;;) {
      const w = this.word();
      if (w) applyWord(w);
      else if (this.ts.accept('*')) pointers.push({ isConst: false, isVolatile: false });
      else break;
    }

    let name: Token | null = null;
    let inner: Declarator | null = null;
    const t = this.ts.peek();
    if (t.kind === 'ident' && this.isName(t.text)) {
      if (mode === 'abstract') this.ts.fail(`unexpected name '${t.text}' in a type name`);
      name = this.ts.next();
    } else if (t.kind === 'punct' && t.text === '(' && this.nestedDeclaratorFollows()) {
      this.ts.next();
      inner = this.declarator(mode);
      this.ts.expect(')', 'to close a declarator');
    } else if (mode === 'named') this.ts.fail(`expected a name, found '${t.text}'`);

    const suffixes: ((t: CType) => CType)[] = [];
    for (;;) {
      const at = this.ts.peek();
      if (this.ts.accept('[')) {
        while (this.word()) continue; // C99 `[static 4]`, `[restrict]`: parameter arrays only, which decay
        const count = this.ts.at(']') ? 0 : constantExpression(this.ts, this.scope.constants);
        if (!Number.isInteger(count) || count < 0) this.ts.fail(`the array bound ${count} is not a size`, at);
        this.ts.expect(']', 'to close an array bound');
        suffixes.push((of) => {
          const r = resolve(of);
          if (r.kind === 'function' || r.kind === 'void') this.ts.fail(`an array of ${r.kind}`, at);
          return { kind: 'array', of, count };
        });
      } else if (this.ts.at('(')) {
        const { params, variadic } = this.parameters();
        suffixes.push((returns) => {
          const r = resolve(returns);
          if (r.kind === 'function' || r.kind === 'array') this.ts.fail(`a function returning a ${r.kind}`, at);
          return { kind: 'function', proto: { returns, params, variadic } };
        });
      } else {
        // Trailing attributes and annotations: `exit(int) __attribute__((noreturn))`, `x OPTIONAL`.
        const w = this.word();
        if (!w) break;
        applyWord(w);
      }
    }

    const pointerSize = this.pointerSize;
    const derive = (base: CType): CType => {
      let type = base;
      for (const p of pointers) {
        type = pointerTo(type, pointerSize);
        if (p.isVolatile) type = { kind: 'volatile', to: type };
        if (p.isConst) type = { kind: 'const', to: type };
      }
      for (let i = suffixes.length - 1; i >= 0; i--) type = suffixes[i]!(type);
      return inner ? inner.derive(type) : type;
    };
    return inner
      ? { name: inner.name, derive, stdcall: inner.stdcall, noReturn: noReturn || inner.noReturn }
      : { name, derive, stdcall, noReturn };
  }

  private isName(text: string): boolean {
    return !BASE_KEYWORDS.has(text) && !TAG_KEYWORDS.has(text) && !classifyWord(text);
  }

  /** At `(`: whether a nested declarator (`(*fp)`, `(WINAPI *fp)`, `(name)`) follows, not a parameter list. */
  private nestedDeclaratorFollows(): boolean {
    const t = this.ts.peek(1);
    if (t.kind === 'punct') return t.text === '*' || t.text === '(' || t.text === '[';
    if (t.kind !== 'ident') return false;
    const w = classifyWord(t.text);
    if (w) return w.kind === 'convention';
    return this.isName(t.text) && !this.scope.typedefs.has(t.text) && !this.builtins.has(t.text);
  }

  private parameters(): { params: Param[]; variadic: boolean } {
    this.ts.expect('(', 'to open a parameter list');
    const params: Param[] = [];
    if (this.ts.accept(')')) return { params, variadic: false };
    for (;;) {
      if (this.ts.accept('...')) {
        if (!params.length) this.ts.fail("'...' needs a parameter before it");
        this.ts.expect(')', "after '...'");
        return { params, variadic: true };
      }
      const start = this.ts.peek();
      const spec = this.specifiers();
      if (spec.typedef) this.ts.fail("'typedef' in a parameter list", start);
      const d = this.declarator('either');
      let type = d.derive(spec.type);
      const r = resolve(type);
      if (r.kind === 'void') {
        if (params.length || d.name || !this.ts.accept(')')) this.ts.fail('a parameter cannot be void', start);
        return { params, variadic: false };
      }
      // C adjusts parameters: an array to a pointer to its element, a function to a pointer to it.
      if (r.kind === 'array') type = pointerTo(r.of, this.pointerSize);
      else if (r.kind === 'function') type = pointerTo(type, this.pointerSize);
      params.push({ name: d.name?.text ?? '', type });
      if (this.ts.accept(')')) return { params, variadic: false };
      this.ts.expect(',', 'between parameters');
    }
  }

  private tagged(kind: Tagged['kind']): CType {
    const keyword = this.ts.next();
    while (this.word()) continue; // __declspec(align(8)), __attribute__((packed)) are read and dropped
    const tagToken = this.ts.peek().kind === 'ident' ? this.ts.next() : null;
    const tag = tagToken?.text ?? '';
    const type: Tagged = kind === 'enum' ? { kind, tag, size: 4 } : { kind, tag };
    if (!this.ts.at('{')) {
      if (!tagToken) this.ts.fail(`expected a tag or '{' after '${kind}'`);
      return type;
    }
    const def = kind === 'enum' ? this.enumBody(tag) : this.recordBody(kind, tag);
    if (tag) this.define(def, tagToken!);
    else this.pending.set(type, { def, at: keyword });
    return type;
  }

  private define(def: TypeDefinition, at: Token): void {
    const key = tableKey(def);
    if (this.scope.types.has(key)) this.ts.fail(`${key} is already defined`, at);
    this.scope.types.set(key, def);
  }

  private recordBody(kind: 'struct' | 'union', tag: string): TypeDefinition {
    this.ts.expect('{', `to open the ${kind}`);
    const fields: { name: string; type: CType; at: Token }[] = [];
    while (!this.ts.accept('}')) {
      const at = this.ts.peek();
      const spec = this.specifiers();
      if (spec.typedef) this.ts.fail(`'typedef' inside a ${kind}`, at);
      if (this.ts.accept(';')) {
        // C11 anonymous members: their members are reached as the enclosing one's.
        const r = spec.type;
        if (r.kind !== 'struct' && r.kind !== 'union') this.ts.fail('a member needs a name', at);
        fields.push({ name: '', type: spec.type, at });
        continue;
      }
      do {
        const d = this.declarator('named');
        if (this.ts.at(':')) this.ts.fail('bit-fields are not supported');
        if (fields.some((f) => f.name === d.name!.text)) this.ts.fail(`duplicate member '${d.name!.text}'`, d.name!);
        fields.push({ name: d.name!.text, type: d.derive(spec.type), at: d.name! });
      } while (this.ts.accept(','));
      this.ts.expect(';', 'after a member');
    }
    const laid = layout(kind, fields, (t) => this.pending.get(t)?.def ?? this.scope.types.get(tableKey(t)));
    if ('reason' in laid)
      this.ts.fail(`member '${laid.field}': ${laid.reason}`, fields.find((f) => f.name === laid.field)!.at);
    const def: TypeDefinition = { kind, tag, size: laid.size, members: laid.members };
    if (tag) this.nameMembers(def);
    return def;
  }

  private enumBody(tag: string): TypeDefinition {
    this.ts.expect('{', 'to open the enum');
    const enumerators: { name: string; value: number }[] = [];
    let value = 0;
    while (!this.ts.accept('}')) {
      const name = this.ts.next();
      if (name.kind !== 'ident' || !this.isName(name.text))
        this.ts.fail(`expected an enumerator, found '${name.text}'`, name);
      if (this.ts.accept('=')) value = constantExpression(this.ts, this.scope.constants);
      const known = this.scope.constants.get(name.text);
      if (known !== undefined && known !== value) this.ts.fail(`${name.text} is already ${known}`, name);
      this.scope.constants.set(name.text, value);
      enumerators.push({ name: name.text, value: value++ });
      if (!this.ts.accept(',')) {
        this.ts.expect('}', 'to close the enum');
        break;
      }
    }
    return { kind: 'enum', tag, size: 4, enumerators };
  }

  /** Gives an untagged definition its tag (a typedef's name, `Outer::member`) and defines it. */
  private nameAnonymous(t: CType, tag: string): void {
    const p = this.pending.get(t);
    if (!p || (t.kind !== 'struct' && t.kind !== 'union' && t.kind !== 'enum')) return;
    this.pending.delete(t);
    t.tag = tag;
    p.def.tag = tag;
    this.define(p.def, p.at);
    if (p.def.kind !== 'enum') this.nameMembers(p.def);
  }

  private nameMembers(def: Extract<TypeDefinition, { kind: 'struct' | 'union' }>): void {
    def.members.forEach((m, i) => this.nameAnonymous(core(m.type), `${def.tag}::${m.name || `anonymous${i}`}`));
  }

  /**
   * After a declaration, definitions nothing named: a bare `enum { MAX_PATH = 260 };` only defines its
   * constants; a structure is named by where it was written. Newest first, so members follow their parent.
   */
  private nameLeftovers(): void {
    for (const [t, { def, at }] of [...this.pending].reverse()) {
      if (!this.pending.has(t)) continue;
      if (def.kind === 'enum') this.pending.delete(t);
      else this.nameAnonymous(t, `(anonymous at ${this.ts.source}:${at.line}:${at.column})`);
    }
  }
}
