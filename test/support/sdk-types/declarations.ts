// SDK 1.0.1's own type declarations (`.d.mts`), loaded with the TypeScript compiler: the walk checks every
// answer against the type the SDK promises its user, since 1.0.1 validates nothing at run time
// (docs/sdk-compatibility.md).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const SDK_VERSIONS = ['2026-04', '2026-10', '2027-01'] as const;
export type SdkVersion = (typeof SDK_VERSIONS)[number];

export interface SdkDeclarations {
  checker: ts.TypeChecker;
  /** `ReturnType<typeof createPolar>`: the client's services and methods. */
  client: ts.Type;
  /** The dated entry's `errors` namespace: the error classes the client throws. */
  errors: ts.Symbol | undefined;
}

// The package exports no package.json, so its folder is found from the project's root.
const packageRoot = fileURLToPath(new URL('../../../node_modules/@polar-sh/sdk-1', import.meta.url));
const loaded = new Map<SdkVersion, SdkDeclarations>();

/** The declarations of one dated client; one compiler program per version, built once per process. */
export function sdkDeclarations(version: SdkVersion): SdkDeclarations {
  const cached = loaded.get(version);
  if (cached) return cached;
  const entry = join(packageRoot, 'dist', version, 'index.d.mts');
  // strictNullChecks: without it `T | null` collapses to `T` and nullability could not be checked.
  const program = ts.createProgram([entry], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`cannot read the SDK's declarations at ${entry}`);
  const createPolar = checker.getExportsOfModule(moduleSymbol).find(symbol => symbol.name === 'createPolar');
  if (!createPolar) throw new Error(`${entry} exports no createPolar`);
  const factory = checker.getTypeOfSymbol(checker.getAliasedSymbol(createPolar));
  const client = factory.getCallSignatures()[0].getReturnType();
  const errors = checker.getExportsOfModule(moduleSymbol).find(symbol => symbol.name === 'errors');
  const declarations = { checker, client, errors: errors && checker.getAliasedSymbol(errors) };
  loaded.set(version, declarations);
  return declarations;
}

/**
 * What a method's promise resolves to, for a dotted method path such as `customerPortal.orders.get`.
 * Undefined for a path the client does not have.
 */
export function methodResultType(declarations: SdkDeclarations, method: string): ts.Type | undefined {
  const { checker } = declarations;
  let type: ts.Type | undefined = declarations.client;
  for (const part of method.split('.')) {
    const property: ts.Symbol | undefined = type && checker.getPropertyOfType(type, part);
    type = property && checker.getTypeOfSymbol(property);
  }
  const signature = type?.getCallSignatures()[0];
  if (!signature) return undefined;
  const result = signature.getReturnType();
  return checker.getAwaitedType(result) ?? result;
}

/** Every method path of the client (`products.list`, `customers.members.get`, ...), in declaration order. */
export function clientMethods(declarations: SdkDeclarations): string[] {
  const { checker } = declarations;
  const walk = (type: ts.Type, prefix: string): string[] =>
    checker.getPropertiesOfType(type).flatMap(property => {
      const value = checker.getTypeOfSymbol(property);
      const path = `${prefix}${property.name}`;
      return value.getCallSignatures().length > 0 ? [path] : walk(value, `${path}.`);
    });
  return walk(declarations.client, '');
}

/**
 * The body type an SDK error class carries (`HTTPValidationError` → its `error` property's type), or
 * undefined when this version has no such class.
 */
export function errorBodyType(declarations: SdkDeclarations, className: string): ts.Type | undefined {
  const { checker, errors } = declarations;
  const symbol = errors && checker.getExportsOfModule(errors).find(s => s.name === className);
  if (!symbol) return undefined;
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const error = checker.getPropertyOfType(checker.getDeclaredTypeOfSymbol(target), 'error');
  return error && checker.getTypeOfSymbol(error);
}
