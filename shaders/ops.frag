// Arrow colour by operation kind.
flat in int v_kind;
flat in int v_hi;
out vec4 frag;
void main() {
  vec3 c = vec3(0.8);
  if (v_kind == 3) c = vec3(0.30, 0.90, 0.40);       // add
  else if (v_kind == 4) c = vec3(0.35, 0.70, 1.00);  // move
  else if (v_kind == 2) c = vec3(0.80, 0.55, 1.00);  // write
  else if (v_kind == 5) c = vec3(1.00, 0.40, 0.40);  // compare-swap
  else if (v_kind == 6) c = vec3(1.00, 0.45, 0.85);  // atomic
  frag = vec4(v_hi == 1 ? vec3(1.0) : c, 0.9);
}
