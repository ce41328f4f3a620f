"""The text checks of a frame, from the app's --state-file: its "labels" ([x0, y0, x1, y1, text] in
window pixels, every text the view, the strips, the headers, the legends, the counter tables, the
bank panel and the Performance tab drew) and "clipped" (those an edge cut). A frame passes when no
two labels overlap, none leaves the window and none is cut."""

SLACK = 0.5  # px: rounding of text positions


def overlap(a, b):
    return min(a[2], b[2]) - max(a[0], b[0]) > SLACK and min(a[3], b[3]) - max(a[1], b[1]) > SLACK


def problems(state, limit=12):
    """One line per problem (at most `limit`, then a count), empty when the frame's texts are fine."""
    out = []
    w, h = state["window"]
    labels = state["labels"]
    for l in labels:
        if l[0] < -SLACK or l[1] < -SLACK or l[2] > w + SLACK or l[3] > h + SLACK:
            out.append(f"leaves the {w:.0f}x{h:.0f} window: {describe(l)}")
    for l in state["clipped"]:
        out.append(f"cut by an edge: {describe(l)}")
    # Sorted by x0, a label meets only those that start before it ends.
    order = sorted(labels, key=lambda l: l[0])
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            if b[0] >= a[2] - SLACK:
                break
            if overlap(a, b):
                out.append(f"overlap: {describe(a)} and {describe(b)}")
    if len(out) > limit:
        out = out[:limit] + [f"... and {len(out) - limit} more"]
    return out


def describe(l):
    return f"'{l[4]}' [{l[0]:.0f},{l[1]:.0f} {l[2]:.0f},{l[3]:.0f}]"
