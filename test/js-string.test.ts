// Strings read in place (assembly/js-string.ts) against TextEncoder, the
// encodeInto path and the reference twin (test/helpers/string-property.js;
// test/runtimes.test.ts runs the same property under Node 20, 22 and 26,
// Bun and Deno), and which path this engine takes.
import { describe, expect, it } from 'vitest';
import * as lib from '../src/index.js';
import * as ref from '../src/reference/index.js';
import * as refStrings from '../src/reference/js-string.js';
import * as wasm from '../src/wasm/module.js';
import * as staging from '../src/wasm/staging.js';
import * as filterBase from '../src/filter/filter-base.js';
import { checkStringParity } from './helpers/string-property.js';

describe('strings read in place', () => {
  it('encode as TextEncoder and the reference twin do, and give the encodeInto path\'s positions, answers and bits under every scheme', () => {
    expect(checkStringParity({ lib, ref, refStrings, wasm, staging, filterBase }, { runs: 300, seed: 20261202 })).toEqual({ runs: 300, failed: false, counterexample: null });
  }, 300_000);

  it('are the path exactly where the engine supplies the JS String Builtins, is not JavaScriptCore and is not V8 15 or later', () => {
    const supplied = WebAssembly.Module.imports(wasm.compiledModule()).length === 0;
    const javaScriptCore = 'line' in new Error() && 'sourceURL' in new Error();
    expect(wasm.reportedV8Major()).toBe(Number(process.versions.v8.split('.')[0]));
    expect(wasm.V8_COPIES_FROM).toBe(15);
    expect(wasm.stringsReadInPlace()).toBe(supplied && !javaScriptCore && wasm.reportedV8Major()! < 15);
    expect(wasm.spiderMonkey).toBe(false); // Node's V8
    expect(staging.inPlaceUnits()).toBe(wasm.stringsReadInPlace() ? staging.IN_PLACE_MAX : -1);
    // V8 13 and later (Node 24 and 26) have them; Node 20's V8 11.3 does not.
    const v8 = Number(process.versions.v8.split('.')[0]);
    expect(supplied).toBe(v8 >= 12);
  });

  it('write the exact bytes of the edge cases: a lone surrogate is EF BF BD, an astral character four bytes', () => {
    const x = wasm.instantiate();
    const stage = (s: string) => Array.from(new Uint8Array(x.memory.buffer, x.scratchPtr(), x.stageString(s, 0, 0)));
    expect(stage('')).toEqual([]);
    expect(stage('\ud800')).toEqual([0xef, 0xbf, 0xbd]);
    expect(stage('a\udc00b')).toEqual([0x61, 0xef, 0xbf, 0xbd, 0x62]);
    expect(stage('\ud800\ud800')).toEqual([0xef, 0xbf, 0xbd, 0xef, 0xbf, 0xbd]);
    expect(stage('\ud83d\ude00')).toEqual([0xf0, 0x9f, 0x98, 0x80]);
    expect(stage('é\u0301€')).toEqual([0xc3, 0xa9, 0xcc, 0x81, 0xe2, 0x82, 0xac]);
    expect(stage('\uffff')).toEqual([0xef, 0xbf, 0xbf]);
    expect(Array.from(refStrings.encodeUtf8('a\udc00b\ud83d\ude00'))).toEqual([0x61, 0xef, 0xbf, 0xbd, 0x62, 0xf0, 0x9f, 0x98, 0x80]);
  });
});
