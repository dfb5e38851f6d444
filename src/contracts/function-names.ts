import { Type } from '@sinclair/typebox';
import { Envelope, Nullable } from './envelope.js';
import { enumOf } from './enums.js';
import { NAME_SOURCE_TYPES } from './functions.js';

export const FunctionRename = Type.Object({
  new_name: Type.String(),
  new_mangled_name: Type.String(),
});

export const FunctionRenameMap = Type.Object({
  function_id: Type.Integer({ format: 'int64' }),
  ...FunctionRename.properties,
});

export const FunctionsListRename = Type.Object({ functions: Type.Array(FunctionRenameMap) });

export const FunctionNameHistory = Type.Object({
  history_id: Type.Integer(),
  change_made_by: Type.String(),
  function_name: Type.String(),
  mangled_name: Type.String(),
  is_debug: Type.Boolean(),
  source_type: enumOf(NAME_SOURCE_TYPES),
  created_at: Type.String(),
});

export const FunctionNameEnvelopes = {
  history: Envelope(Nullable(Type.Array(FunctionNameHistory))),
};
