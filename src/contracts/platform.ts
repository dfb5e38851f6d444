import { Type } from '@sinclair/typebox';
import { Envelope, Nullable } from './envelope.js';
import { Role } from './enums.js';

export const ModelsResponse = Type.Object({ models: Type.Array(Type.String()) });

export const ConfigResponse = Type.Object({
  dashboard_url: Type.Optional(Type.String({ default: '' })),
  max_file_size_bytes: Type.Integer(),
  ai_decompiler_unsupported_languages: Type.Array(Type.String()),
  ai_decompiler_supported_models: Type.Array(Type.String()),
});

export const GetMeResponse = Type.Object({
  username: Type.String(),
  user_id: Type.Integer(),
  first_name: Type.String(),
  last_name: Type.String(),
  email: Type.String({ format: 'email' }),
  creation: Type.String({ format: 'date-time' }),
  tutorial_seen: Type.Boolean(),
  role: Role,
});

export const PlatformEnvelopes = {
  models: Envelope(Nullable(ModelsResponse)),
  config: Envelope(Nullable(ConfigResponse)),
  me: Envelope(Nullable(GetMeResponse)),
};
