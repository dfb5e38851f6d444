// Saves a file the server serves as bytes (the PDF report, the CycloneDX SBOM, an extracted firmware file,
// a memory dump); a failed download says why beside the button.
import { useMutation } from '@tanstack/react-query';
import { download } from '../api/client';
import { ErrorNote } from './status';

export interface DownloadButtonProps {
  path: string;
  /** The file's name (its last `/` part is the saved name). */
  name: string;
  /** What the button says; without one it says "Download" and is named after the file for screen readers. */
  label?: string;
  /** The Accept header: operations that answer either JSON or the file need it. */
  accept?: string;
}

export function DownloadButton({ path, name, label, accept }: DownloadButtonProps) {
  const save = useMutation({ mutationFn: () => download(path, name.split('/').pop() || name, accept) });
  return (
    <span className="download">
      <button
        type="button"
        className="secondary"
        onClick={() => save.mutate()}
        disabled={save.isPending}
        aria-label={label ? undefined : `Download ${name}`}
      >
        {save.isPending ? 'Preparing…' : (label ?? 'Download')}
      </button>
      {save.error && <ErrorNote error={save.error} />}
    </span>
  );
}
