// The dynamic-execution views (/v2/analyses/{id}/dynamic-execution/…) as the reference spells them: a status,
// the network overview, process dumps (and one by name), the process registry, the process tree and TTPs;
// and Binlens's own view of the run's recorded events, a page at a time.
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
  pid: Type.Optional(
    Type.Integer({ description: 'Binlens extension: the process it was dumped from (or that wrote the file).' }),
  ),
  reason: Type.Optional(
    Type.Union([Type.Literal('injected'), Type.Literal('executed'), Type.Literal('dropped')], {
      description:
        'Binlens extension: why it was dumped — code written into another process and started (`injected`), ' +
        'code the process wrote and ran itself (`executed`: unpacked), or an executable written to disk (`dropped`).',
    }),
  ),
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

/** The longest page of events: a run keeps up to 10 000 of them. */
export const MAX_EVENTS_PAGE = 500;

export const DynamicEventsQuery = Type.Object({
  pid: Type.Optional(Type.Integer({ minimum: 0, description: 'Only the events of this process.' })),
  kind: Type.Optional(
    Type.String({
      pattern: '^[a-z-]{1,40}$',
      description: 'Only the events of this kind (`file-write`, `registry-set`, `dns-query`, …).',
    }),
  ),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_EVENTS_PAGE, default: 100 })),
});

export const DynamicEvent = Type.Object({
  seq: Type.Integer({ description: 'Its place in the run: events are numbered in the order they happened.' }),
  pid: Type.Integer(),
  kind: Type.String(),
  api: Type.String({ description: 'The system call or API that did it.' }),
  site: Type.Integer({ description: 'Guest address of the instruction that made the call.' }),
  detail: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]), {
    description: 'What it did: a path, a key, a host, an address, flags — by name.',
  }),
  function_id: Nullable(
    Type.Integer({
      description:
        "The function of the analysis holding `site`: null for code the static analysis has not seen (another program's, a payload's) or before it is Complete.",
    }),
  ),
});

export const DynamicEvents = Type.Object({
  events: Type.Array(DynamicEvent),
  /** Events matching the filters, on every page. */
  total: Type.Integer(),
  recorded: Type.Integer({
    description: 'Events the run recorded: past the first 10 000, only their count is kept.',
  }),
  kinds: Type.Array(Type.Object({ kind: Type.String(), count: Type.Integer() }), {
    description:
      "How many of the process's events (all of the run's without `pid`) are of each kind, whatever `kind` asks.",
  }),
});

export const DynamicExecutionEnvelopes = {
  events: Envelope(Nullable(DynamicEvents)),
  status: Envelope(Nullable(DynamicExecutionStatusData)),
  networkOverview: Envelope(Nullable(NetworkOverviewResponse)),
  processDumps: Envelope(Nullable(ProcessDumps)),
  processRegistry: Envelope(Nullable(ProcessRegistry)),
  processTree: Envelope(Nullable(ProcessTree)),
  ttps: Envelope(Nullable(Ttps)),
};
