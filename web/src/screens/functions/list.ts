// Every function of an analysis, read in pages of the largest size the API allows, a few pages at a time,
// with the count so far for the screen to show while 10^5 of them arrive.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrapNullable } from '../../api/client';
import type { paths } from '../../api/schema';

export type FunctionItem = NonNullable<
  paths['/v2/analyses/{analysis_id}/functions']['get']['responses'][200]['content']['application/json']['data']
>['functions'][number];

export const functionsListKey = (analysisId: number) => ['analysis-functions', analysisId] as const;

const PAGE_SIZE = 1000;
const PAGES_AT_ONCE = 4;

async function loadAll(analysisId: number, progress: (count: number) => void): Promise<FunctionItem[]> {
  const all: FunctionItem[] = [];
  for (let first = 1; ; first += PAGES_AT_ONCE) {
    const pages = await Promise.all(
      Array.from({ length: PAGES_AT_ONCE }, async (_, k) => {
        const data = await unwrapNullable(
          api.GET('/v2/analyses/{analysis_id}/functions', {
            params: { path: { analysis_id: analysisId }, query: { page: first + k, page_size: PAGE_SIZE } },
          }),
        );
        return data?.functions ?? [];
      }),
    );
    for (const page of pages) for (const f of page) all.push(f);
    progress(all.length);
    // A short page is the last one: the pages after it are empty.
    if (pages.some((p) => p.length < PAGE_SIZE)) return all;
  }
}

export function useAllFunctions(analysisId: number) {
  const [loaded, setLoaded] = useState(0);
  const query = useQuery({
    queryKey: functionsListKey(analysisId),
    queryFn: () => loadAll(analysisId, setLoaded),
  });
  return { query, loaded };
}
