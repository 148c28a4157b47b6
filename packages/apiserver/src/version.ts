/** kube's version.Info, served at /version. */
export interface VersionInfo {
  major: string;
  minor: string;
  emulationMajor?: string;
  emulationMinor?: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

/** The Kubernetes API level Kapi emulates. */
export const KUBE_API_LEVEL = { major: '1', minor: '33' } as const;

export function defaultVersionInfo(kapiVersion = '0.0.0'): VersionInfo {
  return {
    major: KUBE_API_LEVEL.major,
    minor: KUBE_API_LEVEL.minor,
    emulationMajor: KUBE_API_LEVEL.major,
    emulationMinor: KUBE_API_LEVEL.minor,
    gitVersion: `v${KUBE_API_LEVEL.major}.${KUBE_API_LEVEL.minor}.0-kapi.${kapiVersion}`,
    gitCommit: '',
    gitTreeState: 'clean',
    buildDate: '1970-01-01T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'kapi',
    platform: `${process.platform}/${process.arch}`,
  };
}
