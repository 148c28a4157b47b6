/** kube compresses responses larger than this (defaultGzipThresholdBytes: its writer gzips when len(p) > threshold). */
export const GZIP_THRESHOLD_BYTES = 128 * 1024;

/** Whether Accept-Encoding admits gzip (`gzip`, `gzip;q=0.5`, `*`), and not with q=0. */
export function acceptsGzip(header: string | null): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';').map((p) => p.trim());
    const q = params.find((p) => p.startsWith('q='));
    return (coding === 'gzip' || coding === '*') && (!q || Number(q.slice(2)) > 0);
  });
}
