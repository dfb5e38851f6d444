// What the collection screens share: scopes, models, the caller, and a collection's whole member list
// (PATCH …/binaries replaces it, so adding or removing one member sends all the others too).
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { operations } from '../../api/schema';
import { unwrapPage } from '../../api/client';

export type Scope = NonNullable<
  operations['createCollection']['requestBody']
>['content']['application/json']['collection_scope'] &
  string;

export const SCOPES: { value: Scope; label: string }[] = [
  { value: 'PRIVATE', label: 'Private (only you)' },
  { value: 'TEAM', label: 'Team (you and your team)' },
  { value: 'PUBLIC', label: 'Public (everyone)' },
  { value: 'PROTECTED', label: 'Protected (everyone, as Public)' },
];

/** Model names; a collection's `model_id` is a position in this list, from 1. */
export const useModels = () =>
  useQuery({ queryKey: ['models'], queryFn: () => unwrap(api.GET('/v2/models')), select: (d) => d.models });

export const useMe = () => useQuery({ queryKey: ['me'], queryFn: () => unwrap(api.GET('/v2/users/me')) });

/** Comma- or space-separated tags, trimmed, each once. */
export const parseTags = (text: string) => [...new Set(text.split(/[,\s]+/).filter(Boolean))];

/** Binary ids of every member the caller can see, a page of 100 at a time. */
async function memberIds(collectionId: number): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const { data, hasNext } = await unwrapPage(
      api.GET('/v2/collections/{collection_id}', {
        params: {
          path: { collection_id: collectionId },
          query: { include_binaries: true, page_size: 100, page_number: page },
        },
      }),
    );
    for (const b of data.binaries ?? []) ids.push(typeof b === 'number' ? b : b.binary_id);
    if (!hasNext) return ids;
  }
}

/** Adds and removes members by binary id. */
export async function changeMembers(collectionId: number, change: { add?: number[]; remove?: number[] }) {
  const ids = new Set(await memberIds(collectionId));
  for (const id of change.add ?? []) ids.add(id);
  for (const id of change.remove ?? []) ids.delete(id);
  return unwrap(
    api.PATCH('/v2/collections/{collection_id}/binaries', {
      params: { path: { collection_id: collectionId } },
      body: { binaries: [...ids] },
    }),
  );
}
