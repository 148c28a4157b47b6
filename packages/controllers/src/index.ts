// In-process controllers for Kapi servers (kube-controller-manager's, where an API server alone needs them).
export { garbageCollector, type GarbageCollectorOptions } from './garbage-collector.js';
export { electLeader, type LeaderElection, type LeaderElectionOptions } from './leader-election.js';
