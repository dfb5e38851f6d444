// The function screen's reads, keyed under ['function', id] so that one invalidation after a rename refreshes
// everything that shows the name.
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { paths } from '../../api/schema';

/** What a GET answers in its envelope's `data`. */
type Data<P extends keyof paths> = paths[P]['get'] extends {
  responses: { 200: { content: { 'application/json': { data?: infer D } } } };
}
  ? NonNullable<D>
  : never;

export type FunctionDetail = Data<'/v2/functions/{function_id}'>;
export type Decompilation = Data<'/v2/functions/{function_id}/ai-decompilation'>;
export type NameEntry = Data<'/v2/functions/history/{function_id}'>[number];

export const functionKey = (id: number) => ['function', id] as const;
const fn = (function_id: number) => ({ params: { path: { function_id } } });

export const useFunctionDetail = (id: number) =>
  useQuery({
    queryKey: [...functionKey(id), 'detail'],
    queryFn: () => unwrap(api.GET('/v2/functions/{function_id}', fn(id))),
  });

export const useBlocks = (id: number) =>
  useQuery({
    queryKey: [...functionKey(id), 'blocks'],
    queryFn: async () => (await unwrap(api.GET('/v2/functions/{function_id}/blocks', fn(id)))).blocks,
  });

/** The analysis's architecture picks the assembly highlighter. */
export const useArchitecture = (analysisId: number | undefined) =>
  useQuery({
    queryKey: ['analysis-params', analysisId],
    enabled: analysisId !== undefined,
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/v2/analyses/{analysis_id}/params', { params: { path: { analysis_id: analysisId ?? 0 } } }),
        )
      ).architecture,
  });

export const useDecompilation = (id: number) =>
  useQuery({
    queryKey: [...functionKey(id), 'decompilation'],
    queryFn: () => unwrap(api.GET('/v2/functions/{function_id}/ai-decompilation', fn(id))),
    // The task runs in a worker: ask again until it is done.
    refetchInterval: (q) => (q.state.data?.status === 'pending' ? 1500 : false),
  });

export const useNameHistory = (id: number) =>
  useQuery({
    queryKey: [...functionKey(id), 'name-history'],
    queryFn: () => unwrap(api.GET('/v2/functions/history/{function_id}', fn(id))),
  });
