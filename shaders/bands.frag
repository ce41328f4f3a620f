// Alternating bands per block, a line at each warp boundary, a stronger one at each block
// boundary: each only where its period is at least u_min_band_px wide, so that they do not alias
// into moire when thousands of elements share the view. A step with its own bands (Step::bands,
// u_nseg > 0: a virtual GPU's keys each) draws those instead, edges u_seg[0..u_nseg].
uniform int u_nseg;
uniform int u_seg[9];
in vec2 v_px;
out vec4 frag;
void main() {
  float fx = index_at(0, v_px.x);
  int i = clamp(int(floor(fx)), 0, u_elems - 1);
  float cw = cell_w_at(0, i);
  int ept = max(u_ept, 1), threads = max(u_block, 1);
  float per_block = float(threads * ept), per_warp = float(min(threads, 32) * ept);  // elements
  bool blocks = per_block * cw >= u_min_band_px, warps = threads > 32 && per_warp * cw >= u_min_band_px;
  int block = i / int(per_block);
  if (u_nseg > 0) {
    block = 0;
    while (block + 1 < u_nseg && i >= u_seg[block + 1]) ++block;
    blocks = true;
    warps = false;
  }
  vec3 c = (blocks && block % 2 == 1) ? vec3(0.20, 0.21, 0.26) : vec3(0.16, 0.17, 0.20);
  if (i >= u_n) c = vec3(0.13, 0.13, 0.14);
  // Boundaries fall between elements: a line two pixels wide, one where they are dense.
  float kb = round(fx / per_block) * per_block, kw = round(fx / per_warp) * per_warp;
  float block_half = per_block * cw >= 16.0 ? 1.0 : 0.5, warp_half = per_warp * cw >= 16.0 ? 1.0 : 0.5;
  if (u_nseg > 0) kb = 1e9;
  if (u_nseg > 0)
    for (int k = 1; k < u_nseg; ++k) kb = abs(fx - float(u_seg[k])) < abs(fx - kb) ? float(u_seg[k]) : kb;
  if (blocks && kb > 0.0 && kb < float(u_elems) && abs(fx - kb) * cw < block_half) c = vec3(0.85, 0.85, 0.9);
  else if (warps && kw > 0.0 && kw < float(u_elems) && abs(fx - kw) * cw < warp_half) c = vec3(0.45, 0.48, 0.6);
  frag = vec4(c, 1.0);
}
