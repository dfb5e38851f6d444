import { Link } from 'wouter';

/** A function by name, linked to its page when the store has it. */
export function FunctionLink({ id, name }: { id: number | null; name: string }) {
  const label = <span className="mono">{name}</span>;
  return id === null ? label : <Link href={`/function/${id}`}>{label}</Link>;
}
