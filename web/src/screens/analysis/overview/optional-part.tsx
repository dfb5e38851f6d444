import type { ReactNode } from 'react';
import { ApiError } from '../../../api/client';
import { Loaded } from '../../../components/status';

/**
 * A result the analysis makes only when asked (capabilities, SBOM, vulnerabilities). The server answers 409
 * when it was not made, or cannot be yet: that is a state of the analysis, shown as a muted note saying how
 * to get it, not as an error.
 */
export function OptionalPart<T>({
  query,
  what,
  howToGet,
  children,
}: {
  query: { data: T | undefined; error: unknown; isPending: boolean };
  what: string;
  /** Shown when the part was not generated, e.g. "Create the analysis with capabilities on." */
  howToGet: string;
  children: (data: T) => ReactNode;
}) {
  const e = query.error;
  if (e instanceof ApiError && e.status === 409)
    // Other 409s (not complete yet, no vulnerability database) explain themselves.
    return <p className="muted">{/not generated/.test(e.message) ? howToGet : e.message}</p>;
  return (
    <Loaded query={query} what={what}>
      {children}
    </Loaded>
  );
}
