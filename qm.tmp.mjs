import { encode } from 'uqr';
const url='http://localhost:8787/verify/VP-DEM0-CERT-1FY3';
const bytes=Array.from(new TextEncoder().encode(url));
const t=performance.now();
const c=process.argv[2]==='auto'?encode(bytes,{ecc:'M',boostEcc:false,border:0}):encode(bytes,{ecc:'M',boostEcc:false,border:0,maskPattern:Number(process.argv[2])});
console.log(process.argv[2],(performance.now()-t).toFixed(1),'ms mask',c.maskPattern, JSON.stringify(c.data).length);
