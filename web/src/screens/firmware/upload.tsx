// Sends a firmware image to be unpacked (POST /v2/firmware) and opens its task, which follows the unpacking.
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { api, unwrap } from '../../api/client';
import { ErrorNote } from '../../components/status';
import './firmware.css';

export function FirmwareUpload() {
  const [image, setImage] = useState<File | null>(null);
  const [password, setPassword] = useState('');
  const [, navigate] = useLocation();
  const headingId = useId();

  const unpack = useMutation({
    mutationFn: (file: File) =>
      unwrap(
        api.POST('/v2/firmware', {
          // The schema types the file part as a string; the File itself goes in through the serializer.
          body: { file: file.name, ...(password ? { password } : {}) },
          bodySerializer: (fields) => {
            const form = new FormData();
            form.append('file', file, file.name);
            if (fields.password) form.append('password', fields.password);
            return form;
          },
        }),
      ),
    onSuccess: (created) => navigate(`/firmware/${encodeURIComponent(created.task_id)}`),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (image) unpack.mutate(image);
  };

  return (
    <form className="card fw-upload" onSubmit={submit} aria-labelledby={headingId}>
      <h2 id={headingId}>Unpack firmware</h2>
      <p className="muted">
        Every chunk found is unpacked recursively; each executable inside becomes a binary of its own, analysed with the
        model of its CPU.
      </p>
      <label>
        Firmware image <input type="file" required onChange={(e) => setImage(e.target.files?.[0] ?? null)} />
      </label>
      <label>
        Password of encrypted archives (optional){' '}
        <input type="password" value={password} autoComplete="off" onChange={(e) => setPassword(e.target.value)} />
      </label>
      {unpack.error && <ErrorNote error={unpack.error} />}
      <button type="submit" disabled={!image || unpack.isPending}>
        {unpack.isPending ? 'Uploading…' : 'Unpack'}
      </button>
    </form>
  );
}
