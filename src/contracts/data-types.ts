// Function data types on the wire (/v2, FunctionsDataTypes), shaped as the reference's: a function's prototype
// and stack variables in C spelling (FunctionTypeOutput), the structures, enumerations, typedefs and globals it
// depends on, its generation status and data_types_version. `args`, `stack_vars` and structure `members` are
// objects keyed by the offset in hex (`0x0`, `-0x18`), as the reference's plugins read them (docs/decisions.md).
import { Type, type TSchema } from '@sinclair/typebox';
import { Envelope, Nullable } from './envelope.js';

const LastChange = { last_change: Type.Optional(Nullable(Type.String())) };

/** An object keyed by the offset in hex. */
const ByOffset = <T extends TSchema>(value: T) => Type.Object({}, { additionalProperties: value });

export const Argument = Type.Object({
  ...LastChange,
  offset: Type.Integer(),
  name: Type.String(),
  type: Type.String(),
  size: Type.Integer(),
});

export const StackVariable = Type.Object({
  ...LastChange,
  offset: Type.Integer(),
  name: Type.String(),
  type: Type.String(),
  size: Type.Integer(),
  addr: Type.Integer(),
});

export const FunctionHeader = Type.Object({
  ...LastChange,
  name: Type.String(),
  addr: Type.Integer(),
  type: Type.String({ description: 'The return type.' }),
  args: ByOffset(Argument),
});

/** FunctionTypeOutput and FunctionTypeInput: the same fields. */
const FunctionType = Type.Object({
  ...LastChange,
  addr: Type.Integer(),
  size: Type.Integer(),
  header: FunctionHeader,
  stack_vars: Type.Optional(Nullable(ByOffset(StackVariable))),
  name: Type.String(),
  type: Type.String({ description: 'The whole declaration, in C.' }),
  artifact_type: Type.Optional(Type.String({ default: 'Function' })),
});

export const StructureMember = Type.Object({
  ...LastChange,
  name: Type.String(),
  offset: Type.Integer(),
  type: Type.String(),
  size: Type.Integer(),
});

export const Structure = Type.Object({
  ...LastChange,
  name: Type.String(),
  size: Type.Optional(Nullable(Type.Integer())),
  members: ByOffset(StructureMember),
  artifact_type: Type.Optional(Type.String()),
});

export const Enumeration = Type.Object({
  ...LastChange,
  name: Type.String(),
  members: ByOffset(Type.Integer()),
  artifact_type: Type.Optional(Type.String()),
});

export const GlobalVariable = Type.Object({
  ...LastChange,
  addr: Type.Integer(),
  name: Type.String(),
  type: Type.String(),
  size: Type.Integer(),
  artifact_type: Type.Optional(Type.String()),
});

export const TypeDefinition = Type.Object({
  ...LastChange,
  name: Type.String(),
  type: Type.String(),
  artifact_type: Type.Optional(Type.String()),
});

/** A dependency; `artifact_type` says which (Structure first: the serializer takes the first branch that fits). */
const FunctionDependency = Type.Union([Structure, Enumeration, GlobalVariable, TypeDefinition]);

export const FunctionInfo = Type.Object({
  func_types: Type.Optional(Nullable(FunctionType)),
  func_deps: Type.Array(FunctionDependency),
});

export const FunctionDataTypes = Type.Object({
  completed: Type.Boolean(),
  status: Type.String({ description: '`not_generated`, `pending`, `running`, `completed` or `failed`.' }),
  data_types: Type.Optional(Nullable(FunctionInfo)),
  data_types_version: Type.Optional(Nullable(Type.Integer())),
});

const FunctionId = Type.Integer({ format: 'int64' });

export const FunctionDataTypesListItem = Type.Object({ ...FunctionDataTypes.properties, function_id: FunctionId });

const Counts = {
  total_count: Type.Optional(Type.Integer({ default: 0 })),
  total_data_types_count: Type.Optional(Type.Integer({ default: 0 })),
};

export const FunctionDataTypesList = Type.Object({ ...Counts, items: Type.Array(FunctionDataTypesListItem) });

export const FunctionDataTypesStatus = Type.Object({
  function_id: FunctionId,
  completed: Type.Boolean(),
  status: Type.String(),
});

export const GenerationStatusList = Type.Object({ ...Counts, items: Type.Array(FunctionDataTypesStatus) });

export const GenerateFunctionDataTypes = Type.Object({
  queued: Type.Boolean(),
  reference: Type.String({ description: 'The id of the job that generates the data types.' }),
  data_types_list: GenerationStatusList,
});

export const FunctionDataTypesParams = Type.Object({ function_ids: Type.Array(FunctionId) });

export const UpdateFunctionDataTypes = Type.Object({
  data_types_version: Type.Integer(),
  data_types: FunctionInfo,
});

export const FunctionIdsFilter = Type.Object({ function_ids: Type.Optional(Type.Array(Type.Integer())) });

/** A Binlens extension: a version of a function's data types that a later one replaced. */
export const FunctionDataTypesVersion = Type.Object({
  data_types_version: Type.Integer(),
  data_types: FunctionInfo,
  changed_by: Nullable(Type.String({ description: 'Who made this version; null: data-type generation.' })),
  changed_at: Type.String({ format: 'date-time' }),
  replaced_by: Type.String(),
  replaced_at: Type.String({ format: 'date-time' }),
});

export const DataTypesEnvelopes = {
  generate: Envelope(Nullable(GenerateFunctionDataTypes)),
  statuses: Envelope(Nullable(GenerationStatusList)),
  list: Envelope(Nullable(FunctionDataTypesList)),
  one: Envelope(Nullable(FunctionDataTypes)),
  history: Envelope(Nullable(Type.Array(FunctionDataTypesVersion))),
};

/** Queue kind of data-type generation. */
export const DATA_TYPES_JOB_KIND = 'data-types';

/** A data-types job: the analysis, and its debug file resolved as for its analysis job (AnalysisJobPayload). */
export interface DataTypesJobPayload {
  analysisId: number;
  debugSha256: string | null;
}
