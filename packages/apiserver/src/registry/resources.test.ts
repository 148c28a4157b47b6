import { describe, expect, it } from 'vitest';
import { group as apps } from '@kapi/api-apps';
import { plugin as corePlugin } from '@kapi/api-core';
import type { KindConversion } from '@kapi/apimachinery';
import { createResourceRegistry } from './resources.js';

// A kind stored with another group's resource (GroupPlugin.storedAs), shown with apps' Deployment stored as core's
// `events` (any kind would do: the registry knows no concrete kinds).
const conversion: KindConversion = { storageVersion: 'v1', storageApiVersion: 'v1', convert: (objects) => objects };

describe('GroupPlugin.storedAs', () => {
  it('puts the kind in the other resource\'s collection; keys without a matching apiVersion belong to the resource\'s own entry', () => {
    // installed before the owner: the owner still comes first for a key
    const registry = createResourceRegistry([
      { definition: apps, conversions: { Deployment: conversion }, storedAs: { Deployment: { group: '', resource: 'events' } } },
      corePlugin,
    ]);
    const deployments = registry.lookup('apps', 'v1', 'deployments')!;
    expect(deployments.keyPrefix).toBe('/registry/events/');
    expect(deployments.storedAs).toEqual({ group: '', resource: 'events' });
    expect(deployments.cohabiting).toBe(true);
    const events = registry.lookup('', 'v1', 'events')!;
    expect(events.cohabiting).toBe(false);
    expect(events.storedAs).toEqual({ group: '', resource: 'events' });
    expect(registry.forKey('/registry/events/ns/x')).toBe(events);
    expect(registry.forKey('/registry/events/ns/x', 'v1')).toBe(events);
    expect(registry.forKey('/registry/events/ns/x', 'apps/v1')).toBe(deployments);
    expect(registry.forKey('/registry/events/ns/x', 'other/v9')).toBe(events);
    // apps' other kinds keep their own collections
    expect(registry.lookup('apps', 'v1', 'replicasets')!.keyPrefix).toBe('/registry/apps/replicasets/');
  });

  it('refuses a kind stored elsewhere without a conversion naming the stored apiVersion, or a kind the group lacks', () => {
    expect(() => createResourceRegistry([{ definition: apps, storedAs: { Deployment: { group: '', resource: 'events' } } }])).toThrow(
      'apps Deployment is stored as core events but its conversion has no storageApiVersion',
    );
    expect(() =>
      createResourceRegistry([{ definition: apps, conversions: { Deployment: { ...conversion, storageApiVersion: undefined } }, storedAs: { Deployment: { group: '', resource: 'events' } } }]),
    ).toThrow('has no storageApiVersion');
    expect(() => createResourceRegistry([{ definition: apps, storedAs: { Nope: { group: '', resource: 'events' } } }])).toThrow('storedAs: apps Nope is not a kind of the group');
  });
});
