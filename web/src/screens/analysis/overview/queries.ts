// One query per endpoint the overview reads, keyed so the other screens of an analysis share the answers
// (['analysis', id, part], ['binary', id, part], ['me']).
import { useQuery } from '@tanstack/react-query';
import { api, ApiError, unwrap } from '../../../api/client';

/** 409 means "not generated" or "not complete yet": asking again will not change that. */
const retryUnlessConflict = (failures: number, error: Error) =>
  failures < 1 && !(error instanceof ApiError && error.status === 409);

const analysisPath = (id: number) => ({ params: { path: { analysis_id: id } } });

export const useBasic = (id: number) =>
  useQuery({
    queryKey: ['analysis', id, 'basic'],
    queryFn: () => unwrap(api.GET('/v2/analyses/{analysis_id}/basic', analysisPath(id))),
  });

export const useTags = (id: number) =>
  useQuery({
    queryKey: ['analysis', id, 'tags'],
    queryFn: () => unwrap(api.GET('/v2/analyses/{analysis_id}/tags', analysisPath(id))),
  });

/** The PDF report's findings as data: verdict, mitigations, sections, imports and exports, capabilities. */
export const useOverview = (id: number) =>
  useQuery({
    queryKey: ['analysis', id, 'overview'],
    queryFn: () => unwrap(api.GET('/v2/analyses/{analysis_id}/overview', analysisPath(id))),
    retry: retryUnlessConflict,
  });

export const useSbom = (id: number) =>
  useQuery({
    queryKey: ['analysis', id, 'sbom'],
    queryFn: () => unwrap(api.GET('/v2/analyses/{analysis_id}/sbom', analysisPath(id))),
    retry: retryUnlessConflict,
  });

export const useVulnerabilities = (id: number) =>
  useQuery({
    queryKey: ['analysis', id, 'vulnerabilities'],
    queryFn: () => unwrap(api.GET('/v2/analyses/{analysis_id}/vulnerabilities', analysisPath(id))),
    retry: retryUnlessConflict,
  });

export const commentsKey = (id: number) => ['analysis', id, 'comments'];

export const useComments = (id: number) =>
  useQuery({
    queryKey: commentsKey(id),
    queryFn: () => unwrap(api.GET('/v2/analyses/{analysis_id}/comments', analysisPath(id))),
  });

export const useBinaryDetails = (binaryId: number) =>
  useQuery({
    queryKey: ['binary', binaryId, 'details'],
    queryFn: () => unwrap(api.GET('/v2/binaries/{binary_id}/details', { params: { path: { binary_id: binaryId } } })),
  });

export const useMe = () => useQuery({ queryKey: ['me'], queryFn: () => unwrap(api.GET('/v2/users/me')) });

export type AnalysisTag = NonNullable<ReturnType<typeof useTags>['data']>['analysis_tags'][number];
/** Tags the server derives from capability matches, each with a score and the functions carrying it. */
export const isCapabilityTag = (tag: AnalysisTag) => tag.origin === 'CAPABILITY';

export type Overview = NonNullable<ReturnType<typeof useOverview>['data']>;
export type OverviewCapability = NonNullable<Overview['capabilities']>[number];

export type BinaryDetails = NonNullable<ReturnType<typeof useBinaryDetails>['data']>;
export type Vulnerability = NonNullable<ReturnType<typeof useVulnerabilities>['data']>['vulnerabilities'][number];
export type Comment = NonNullable<ReturnType<typeof useComments>['data']>[number];
