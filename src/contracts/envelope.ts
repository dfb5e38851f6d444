import { Type, type TSchema } from '@sinclair/typebox';

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const ErrorModel = Type.Object({ code: Type.String(), message: Type.String() });

export const PaginationModel = Type.Object({
  page_size: Type.Integer(),
  page_number: Type.Integer(),
  has_next_page: Type.Boolean(),
});

export const MetaModel = Type.Object({
  pagination: Type.Optional(Nullable(PaginationModel)),
  detail: Type.Optional(
    Type.String({ description: 'Binlens extension, on errors: what failed and why, e.g. `body.tags: is required`' }),
  ),
  fields: Type.Optional(
    Type.Array(Type.Object({ field: Type.String(), reason: Type.String() }), {
      description: 'Binlens extension, on validation errors: each failing field and the reason',
    }),
  ),
});

/**
 * The reference's BaseResponse<T>: `{status, data, message, errors, meta}`. The server always sends all five
 * (see api/envelope.ts), but the reference publishes none of them as required, so neither do we.
 */
export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({
    status: Type.Optional(Type.Boolean({ default: true })),
    data: Type.Optional(data),
    message: Type.Optional(Nullable(Type.String())),
    errors: Type.Optional(Nullable(Type.Array(ErrorModel))),
    meta: Type.Optional(MetaModel),
  });

export const BaseResponse = Envelope(Nullable(Type.Object({}, { additionalProperties: true })));

export const IdParam = <K extends string>(name: K) =>
  Type.Object({ [name]: Type.Integer() } as { [P in K]: ReturnType<typeof Type.Integer> });
