// The dynamic-execution views of an analysis (GET /v2/analyses/{id}/dynamic-execution/…) as react-query
// options, and their shapes. The reference nests each view's content as `{success, data}` inside the
// envelope's data: these give the inner data (Binlens's own events view is not nested).
import { api, unwrap } from '../../api/client';
import type { paths } from '../../api/schema';

type Base = '/v2/analyses/{analysis_id}/dynamic-execution';
type View<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': { data?: infer D } } } } };
}
  ? NonNullable<D>
  : never;
type Inner<P extends keyof paths> = View<P> extends { data: infer D } ? D : never;

export type RunStatus = View<`${Base}/status`>;
export type Ttps = Inner<`${Base}/ttps`>;
export type Ttp = Ttps['ttps'][number];
export type Network = View<`${Base}/network-overview`>;
export type Dumps = Inner<`${Base}/process-dumps`>;
export type Dump = Dumps['dumps'][number];
export type Registry = Inner<`${Base}/process-registry`>;
export type Events = View<`${Base}/events`>;
export type RunEvent = Events['events'][number];
export type RegistryOperation = Registry[string][number];
type WireProcess = Inner<`${Base}/process-tree`>[number];

/** A process of the run; the schema leaves `children` untyped (a recursive schema), the contract says each is one. */
export interface Process extends Omit<WireProcess, 'children'> {
  children: Process[];
}

const path = (analysisId: number) => ({ params: { path: { analysis_id: analysisId } } });

export const statusQuery = (id: number) => ({
  queryKey: ['dynamic', id, 'status'],
  queryFn: () => unwrap(api.GET('/v2/analyses/{analysis_id}/dynamic-execution/status', path(id))),
});

export const processTreeQuery = (id: number) => ({
  queryKey: ['dynamic', id, 'process-tree'],
  queryFn: async () =>
    (await unwrap(api.GET('/v2/analyses/{analysis_id}/dynamic-execution/process-tree', path(id)))).data as Process[],
});

export const ttpsQuery = (id: number) => ({
  queryKey: ['dynamic', id, 'ttps'],
  queryFn: async () => (await unwrap(api.GET('/v2/analyses/{analysis_id}/dynamic-execution/ttps', path(id)))).data,
});

export const networkQuery = (id: number) => ({
  queryKey: ['dynamic', id, 'network'],
  queryFn: () => unwrap(api.GET('/v2/analyses/{analysis_id}/dynamic-execution/network-overview', path(id))),
});

export const registryQuery = (id: number) => ({
  queryKey: ['dynamic', id, 'registry'],
  queryFn: async () =>
    (await unwrap(api.GET('/v2/analyses/{analysis_id}/dynamic-execution/process-registry', path(id)))).data,
});

export const dumpsQuery = (id: number) => ({
  queryKey: ['dynamic', id, 'dumps'],
  queryFn: async () =>
    (await unwrap(api.GET('/v2/analyses/{analysis_id}/dynamic-execution/process-dumps', path(id)))).data,
});

/** One page of the run's recorded events (of one process, or all), of one kind or all. */
export const eventsQuery = (id: number, pid: number | null, kind: string | null, page: number, pageSize: number) => ({
  queryKey: ['dynamic', id, 'events', pid, kind, page, pageSize],
  queryFn: () =>
    unwrap(
      api.GET('/v2/analyses/{analysis_id}/dynamic-execution/events', {
        params: {
          path: { analysis_id: id },
          query: { page, page_size: pageSize, ...(pid === null ? {} : { pid }), ...(kind === null ? {} : { kind }) },
        },
      }),
    ),
});

/** Where a dump's bytes are served. */
export const dumpPath = (id: number, name: string) =>
  `/v2/analyses/${id}/dynamic-execution/process-dumps/${encodeURIComponent(name)}`;
