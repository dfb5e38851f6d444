import { Type, type TSchema } from '@sinclair/typebox';

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const ErrorModel = Type.Object({ code: Type.String(), message: Type.String() });

export const PaginationModel = Type.Object({
  page_size: Type.Integer(),
  page_number: Type.Integer(),
  has_next_page: Type.Boolean(),
});

export const MetaModel = Type.Object({ pagination: Type.Optional(Nullable(PaginationModel)) });

/** The reference's BaseResponse<T>: `{status, data, message, errors, meta}`. */
export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({
    status: Type.Boolean({ default: true }),
    data,
    message: Nullable(Type.String()),
    errors: Nullable(Type.Array(ErrorModel)),
    meta: MetaModel,
  });

export const BaseResponse = Envelope(Nullable(Type.Object({}, { additionalProperties: true })));

export const IdParam = <K extends string>(name: K) =>
  Type.Object({ [name]: Type.Integer() } as { [P in K]: ReturnType<typeof Type.Integer> });
