// The types of api-hit.js, read by run.ts until api-hit.js is TypeScript.
export declare const runApiHit: () => Promise<{
  met: boolean;
  markdown: string;
  throughput: number;
  p99: number;
  small: { throughput: number; p99: number };
}>;
