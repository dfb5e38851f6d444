// The nearest-function index's port: what matching and unstripping ask of it. Implemented over the
// store's tables (LSH bands + exact re-ranking on SQLite and PostgreSQL).

/** Who asks: only functions of analyses this caller may see are ever returned (scope rules of access.ts). */
export interface IndexViewer {
  userId: number;
  teamId: number | null;
}

/**
 * Restrictions on candidates; every list present must match (empty or absent = no restriction).
 * Collections are resolved to binaryIds by the caller.
 */
export interface IndexFilter {
  analysisIds?: number[];
  binaryIds?: number[];
  functionIds?: number[];
  userIds?: number[];
  /** true: only functions whose names come from symbols/debug info (debug = 1); false: only the others. */
  debug?: boolean;
  /** Candidates from these analyses are never returned (the query's own analysis). */
  excludeAnalysisIds?: number[];
}

export interface NearestQuery {
  /** Unit vector of VECTOR_DIM float32 (engine/similarity). */
  vector: Float32Array;
  k: number;
  minSimilarity: number;
  viewer: IndexViewer;
  filter?: IndexFilter;
}

export interface Neighbour {
  functionId: number;
  analysisId: number;
  binaryId: number;
  name: string;
  nameSourceType: string;
  debug: boolean;
  /** Cosine similarity, exact (re-ranked on the stored vector). */
  similarity: number;
}

export interface SimilarityIndex {
  /** The k most similar visible functions at or above minSimilarity, best first; ties by function id. */
  nearest(q: NearestQuery): Promise<Neighbour[]>;
  /** Many queries at once (one per function of an analysis): same answer as nearest() for each. */
  nearestMany(queries: NearestQuery[]): Promise<Neighbour[][]>;
  /** The stored vectors of these functions (absent ones left out). */
  vectors(functionIds: number[]): Promise<Map<number, Float32Array>>;
}
