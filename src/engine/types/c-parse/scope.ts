// What declarations read so far have defined, which later declarations may use: typedef names, structure,
// union and enum definitions by tag, and enumeration constants (array bounds such as `MAX_PATH`).
import type { CType, TypeTable } from '../ctype.js';
import type { DataModel } from './data-model.js';

export interface DeclarationScope {
  readonly dataModel: DataModel;
  /** Typedef name → its `{ kind: 'typedef' }` type, which every use shares. */
  readonly typedefs: Map<string, CType>;
  readonly types: TypeTable;
  readonly constants: Map<string, number>;
}

export const createScope = (dataModel: DataModel): DeclarationScope => ({
  dataModel,
  typedefs: new Map(),
  types: new Map(),
  constants: new Map(),
});
