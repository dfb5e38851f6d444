// The dynamic-execution views (/v2/analyses/{id}/dynamic-execution/…) as the reference spells them: a status,
// the network overview, process dumps (and one by name), the process registry, the process tree and TTPs.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Envelope, Nullable } from './envelope.js';

export const DynamicExecutionStatusData = Type.Object({
  status: Type.String(),
  /** Binlens extension: why the run ended (exit, instructions, api-calls, time, memory, fault), once it has. */
  stop: Type.Optional(Type.Object({ reason: Type.String(), detail: Type.String() })),
});

export const NetworkOverviewResponse = Type.Object({
  dns: Type.Array(
    Type.Object({
      host: Type.String(),
      type: Type.String(),
      answers: Type.Array(Type.Object({ type: Type.String(), data: Type.String() })),
    }),
  ),
  metadata: Type.Array(
    Type.Object({
      host: Type.String(),
      country_code: Type.String(),
      ASN: Type.String(),
      type: Type.Literal('metadata'),
    }),
  ),
});

const ProcessDump = Type.Object({
  base_address: Type.Integer(),
  actual_filename: Type.String(),
  filename_friendly: Type.String(),
  extended_metadata: Type.Object({ sha256: Type.String(), type: Type.String(), size: Type.Integer() }),
});

/** `{success, data}` inside the envelope's data, as the reference nests these views. */
const Wrapped = <T extends TSchema>(data: T) => Type.Object({ success: Type.Boolean(), data });

export const ProcessDumps = Wrapped(Type.Object({ count: Type.Integer(), dumps: Type.Array(ProcessDump) }));

export const ProcessRegistry = Wrapped(
  Type.Record(
    Type.String(),
    Type.Array(
      Type.Object({
        method: Type.String(),
        key: Type.String(),
        value_name: Nullable(Type.String()),
        value: Nullable(Type.String()),
      }),
    ),
  ),
);

export const ProcessNode = Type.Object({
  pid: Type.Integer(),
  procname: Type.String(),
  executable_name: Type.String(),
  args: Type.Array(Type.String()),
  ts_from: Type.Number(),
  ts_to: Nullable(Type.Number()),
  /** Processes it created, each a ProcessNode. */
  children: Type.Array(Type.Unknown()),
});
export type ProcessNode = Static<typeof ProcessNode>;

export const ProcessTree = Wrapped(Type.Array(ProcessNode));

export const Ttps = Wrapped(
  Type.Object({
    score: Type.Integer(),
    ttps: Type.Array(
      Type.Object({
        name: Type.String(),
        attack: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
        occurrences: Type.Array(Type.Object({ ppid: Type.Integer(), pid: Type.Integer() })),
        score: Type.Integer(),
        /** Binlens extension: the functions of the static analysis whose calls showed it. */
        functions: Type.Optional(
          Type.Array(
            Type.Object({ function_id: Type.Integer(), function_name: Type.String(), function_vaddr: Type.Integer() }),
          ),
        ),
      }),
    ),
  }),
);

export const DynamicExecutionEnvelopes = {
  status: Envelope(Nullable(DynamicExecutionStatusData)),
  networkOverview: Envelope(Nullable(NetworkOverviewResponse)),
  processDumps: Envelope(Nullable(ProcessDumps)),
  processRegistry: Envelope(Nullable(ProcessRegistry)),
  processTree: Envelope(Nullable(ProcessTree)),
  ttps: Envelope(Nullable(Ttps)),
};
