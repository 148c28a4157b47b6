// The x509 library as one file: @kapi/serve's build bundles this entry, with reflect-metadata (which its service
// container, tsyringe, needs loaded first), into dist/x509.cjs. Node loads that one file in about 40 ms, where the
// library's 200-odd CommonJS files took 95-140 ms, and the certificate worker of a first start waits for it.
import 'reflect-metadata';
export * from '@peculiar/x509';
