# cython: annotation_typing=False
"""The event-driven collision core: one stroke run to rest, exactly.

Plain Python that Cython compiles in its pure-Python mode (the C types are in
core.pxd), so this one source is both the compiled engine and its pure-Python twin.
Every operation is IEEE double arithmetic in a fixed order (no fast-math, no fused
multiply-add in the build), so both give the same bits. Square roots are IEEE
correctly rounded in both (C's sqrt, Python's math.sqrt). The twin needs Cython
installed only for its `cython` shadow module.
"""

from typing import Any

import cython

if not cython.compiled:
    # The twin's square root; the compiled engine uses C's (core.pxd). Both are IEEE
    # correctly rounded, so they agree to the bit.
    from math import sqrt

K_DISC = 0  # (K_DISC, t, i, j, closing normal speed)
K_RAIL = 1  # (K_RAIL, t, i, rail, normal speed)
K_POCKET = 2  # (K_POCKET, t, i, pocket, 0.0)
K_OFF = 3  # (K_OFF, t, i, rail, normal speed)
K_ZONE = 4  # (K_ZONE, t, side, inside 0/1, 0.0)
K_STOP = 5  # not logged: a disc comes to rest

WHERE_TABLE = 0
WHERE_POCKET = 1
WHERE_OFF = 2

BIG = 1e300  # "never"
CONTACT_EPS = 1e-6  # mm: discs this close count as touching
V_REST = 1.0  # mm/s: a disc left slower than this after a contact is at rest (stops in 0.5 um)
V_STICK = 1.0  # mm/s: contacts closing slower than this stick (ends Zeno sequences)
V_TOUCH = 1e-9  # mm/s: touching discs closing faster than this collide at once
PRUNE_MARGIN = 1e-3  # mm: slack in the segment-distance tests, far above rounding
CRIT_TOL = 1e-10  # s: precision of a critical point (it only splits the search)
T_TOL = 1e-12  # s: bisection width for an event time (8 nm at the maximum speed)
MAX_EVENTS = 20000  # safety stop against a pathological endless sequence of contacts
# Most discs in one stroke (doubles: 32 pucks and the striker): the C arrays of core.pxd.
MAXD = 40


def _filled(count: int, value: object) -> list[Any]:
    """A list of count copies of value (a C array once assigned in the compiled engine)."""
    return [value] * count


def _quartic(c4: float, c3: float, c2: float, c1: float, c0: float, t: float) -> float:
    return (((c4 * t + c3) * t + c2) * t + c1) * t + c0


def _cubic(d3: float, d2: float, d1: float, d0: float, t: float) -> float:
    return ((d3 * t + d2) * t + d1) * t + d0


def _cubic_root(d3: float, d2: float, d1: float, d0: float, lo: float, hi: float) -> float:
    """A root of the cubic in [lo, hi] where it changes sign, else -1 (no critical point).
    Newton's method kept inside the shrinking bracket (bisection when it steps out)."""
    flo = _cubic(d3, d2, d1, d0, lo)
    fhi = _cubic(d3, d2, d1, d0, hi)
    if (flo < 0.0 and fhi < 0.0) or (flo > 0.0 and fhi > 0.0) or hi <= lo:
        return -1.0
    neg = flo < 0.0
    x = 0.5 * (lo + hi)
    for _ in range(100):
        fx = _cubic(d3, d2, d1, d0, x)
        if fx == 0.0:
            return x
        if (fx < 0.0) == neg:
            lo = x
        else:
            hi = x
        if hi - lo <= CRIT_TOL:
            break
        dfx = (3.0 * d3 * x + 2.0 * d2) * x + d1
        nx = x - fx / dfx if dfx != 0.0 else lo
        if nx <= lo or nx >= hi:
            nx = 0.5 * (lo + hi)
        elif -CRIT_TOL < nx - x < CRIT_TOL:
            return nx
        x = nx
    return 0.5 * (lo + hi)


def _descent(c4: float, c3: float, c2: float, c1: float, c0: float, a: float, b: float) -> float:
    """On [a, b] where the quartic is monotonic: the last time before it drops to <= 0
    (within T_TOL), or -1 if it does not cross from > 0 to <= 0 there.

    Newton's method inside the bracket [lo, hi] (f(lo) > 0 >= f(hi)); once its step is
    below T_TOL it probes T_TOL across the root, which closes the bracket."""
    if _quartic(c4, c3, c2, c1, c0, a) <= 0.0 or _quartic(c4, c3, c2, c1, c0, b) > 0.0:
        return -1.0
    lo = a
    hi = b
    x = a
    for _ in range(200):
        if hi - lo <= T_TOL:
            break
        fx = _quartic(c4, c3, c2, c1, c0, x)
        if fx > 0.0:
            lo = x
        else:
            hi = x
        if hi - lo <= T_TOL:
            break
        dfx = ((4.0 * c4 * x + 3.0 * c3) * x + 2.0 * c2) * x + c1
        nx = x - fx / dfx if dfx < 0.0 else 0.5 * (lo + hi)
        if -T_TOL < nx - x < T_TOL:
            nx = x + T_TOL if fx > 0.0 else x - T_TOL
        if nx <= lo or nx >= hi:
            nx = 0.5 * (lo + hi)
        x = nx
    return lo


def first_crossing(c4: float, c3: float, c2: float, c1: float, c0: float, span: float) -> float:
    """First time in (0, span] at which the quartic drops from > 0 to <= 0, else BIG.

    The roots of f'' split [0, span] into pieces where f' is monotonic; a sign change of
    f' in a piece is a critical point of f; between critical points f is monotonic and
    a crossing there is bracketed and bisected. Deterministic and without tolerances
    beyond T_TOL.
    """
    if c0 > 0.0 and c1 >= 0.0 and c2 >= 0.0 and c3 >= 0.0:
        return BIG  # every coefficient >= 0 (c4 always is): f > 0 for all t >= 0
    # f'' = q2 t^2 + q1 t + q0: its roots in (0, span), s1 <= s2, else span.
    q2 = 12.0 * c4
    q1 = 6.0 * c3
    q0 = 2.0 * c2
    s1 = span
    s2 = span
    if q2 != 0.0:
        disc = q1 * q1 - 4.0 * q2 * q0
        if disc > 0.0:
            sq = sqrt(disc)
            # The numerically stable pair of roots.
            qq = -0.5 * (q1 + sq) if q1 >= 0.0 else -0.5 * (q1 - sq)
            r1 = qq / q2
            r2 = q0 / qq if qq != 0.0 else r1
            if r1 > r2:
                r1, r2 = r2, r1
            if 0.0 < r1 < span:
                s1 = r1
            if r1 < r2 and 0.0 < r2 < span:
                if s1 == span:
                    s1 = r2
                else:
                    s2 = r2
    elif q1 != 0.0:
        r1 = -q0 / q1
        if 0.0 < r1 < span:
            s1 = r1
    d3 = 4.0 * c4
    d2 = 3.0 * c3
    d1 = 2.0 * c2
    d0 = c1
    a = 0.0
    c = _cubic_root(d3, d2, d1, d0, 0.0, s1)
    if c > 0.0:
        hit = _descent(c4, c3, c2, c1, c0, a, c)
        if hit >= 0.0:
            return hit
        a = c
    if s1 < span:
        c = _cubic_root(d3, d2, d1, d0, s1, s2)
        if c > a:
            hit = _descent(c4, c3, c2, c1, c0, a, c)
            if hit >= 0.0:
                return hit
            a = c
        if s2 < span:
            c = _cubic_root(d3, d2, d1, d0, s2, span)
            if c > a:
                hit = _descent(c4, c3, c2, c1, c0, a, c)
                if hit >= 0.0:
                    return hit
                a = c
    hit = _descent(c4, c3, c2, c1, c0, a, span)
    if hit >= 0.0:
        return hit
    return BIG


def seg_dist2(
    ax: float, ay: float, bx: float, by: float, cx: float, cy: float, dx: float, dy: float
) -> float:
    """Squared distance between the segments AB and CD (either may be a point).

    Each disc slides along a straight segment until it rests, so two discs whose
    segments stay further apart than the sum of their radii cannot touch: a cheap,
    exact test that spares most quartics (after Ericson, Real-Time Collision
    Detection, 5.1.9)."""
    ux = bx - ax
    uy = by - ay
    vx = dx - cx
    vy = dy - cy
    wx = ax - cx
    wy = ay - cy
    a = ux * ux + uy * uy
    e = vx * vx + vy * vy
    f = vx * wx + vy * wy
    s = 0.0
    t = 0.0
    if a == 0.0:
        if e > 0.0:
            t = _clamp01(f / e)
    else:
        c = ux * wx + uy * wy
        if e == 0.0:
            s = _clamp01(-c / a)
        else:
            b = ux * vx + uy * vy
            denom = a * e - b * b
            if denom > 0.0:
                s = _clamp01((b * f - c * e) / denom)
            t = (b * s + f) / e
            if t < 0.0:
                t = 0.0
                s = _clamp01(-c / a)
            elif t > 1.0:
                t = 1.0
                s = _clamp01((b - c) / a)
    px = ax + ux * s - (cx + vx * t)
    py = ay + uy * s - (cy + vy * t)
    return px * px + py * py


def _clamp01(v: float) -> float:
    return 0.0 if v < 0.0 else (1.0 if v > 1.0 else v)


def reach_time(gap: float, v: float, acc: float) -> float:
    """Time for a coordinate at distance gap > 0 from a line, approaching it at speed
    v > 0 while decelerating at acc >= 0, to reach the line; BIG if it stops short."""
    disc = v * v - 2.0 * acc * gap
    if disc < 0.0 or v <= 0.0:
        return BIG  # stops short (or is stopping at this very instant)
    # 2c / (-b + sqrt(b^2 - 4ac)) avoids the cancellation of the textbook form.
    return 2.0 * gap / (v + sqrt(disc))


def line_hit(dx: float, dy: float, ux: float, uy: float, v: float, acc: float, rr: float) -> float:
    """Time for a disc sliding from offset (dx, dy) off a fixed point, along the unit
    direction (ux, uy) at speed v decelerating at acc, to come within rr of that point
    (a resting disc or a pocket's centre): where its straight path first meets the
    circle of radius rr, then the time to slide that far. BIG if it never does."""
    b = dx * ux + dy * uy
    if b >= 0.0:
        return BIG  # moving away: the distance only grows along a straight path
    c = dx * dx + dy * dy - rr * rr
    disc = b * b - c
    if disc < 0.0:
        return BIG  # the line passes wide
    # Distance to the first crossing, c / (-b + sqrt(disc)): no cancellation.
    return reach_time(c / (sqrt(disc) - b), v, acc)


class Sim:
    """The state of one stroke. Built by `run`; not for use on its own.

    Why one class of ~590 lines: Cython compiles it as one cdef class
    (server/games/core/collision.pxd),
    so the event loop's fields stay typed C attributes on the hot path; split into objects,
    each step would go through Python attribute lookups, and the pure-Python twin must stay
    this same source, line for line.
    """

    def __init__(
        self,
        size: float,
        decel: float,
        e_disc: float,
        e_rail: float,
        jump_speed: float,
        pocket_inset: float,
        pocket_radius: float,
        zone_limit: float,
        xs: list[float],
        ys: list[float],
        rs: list[float],
        ms: list[float],
    ) -> None:
        n = len(xs)
        self.n = n
        self.size = size
        self.decel = decel
        self.e_disc = e_disc
        self.e_rail = e_rail
        self.jump_speed = jump_speed
        self.pocket_lo = pocket_inset
        self.pocket_hi = size - pocket_inset
        self.pocket_r = pocket_radius
        self.pocket_r2 = pocket_radius * pocket_radius
        self.zone_limit = zone_limit
        if not cython.compiled:
            # The plain-Python twin: lists stand for the C arrays that core.pxd declares
            # (allocated zeroed with the object in the compiled engine).
            self.t0 = _filled(MAXD, 0.0)
            self.x0 = _filled(MAXD, 0.0)
            self.y0 = _filled(MAXD, 0.0)
            self.ux = _filled(MAXD, 0.0)
            self.uy = _filled(MAXD, 0.0)
            self.sp = _filled(MAXD, 0.0)
            self.ts = _filled(MAXD, 0.0)
            self.r = _filled(MAXD, 0.0)
            self.m = _filled(MAXD, 0.0)
            self.bx0 = _filled(MAXD, 0.0)
            self.bx1 = _filled(MAXD, 0.0)
            self.by0 = _filled(MAXD, 0.0)
            self.by1 = _filled(MAXD, 0.0)
            self.ex = _filled(MAXD, 0.0)
            self.ey = _filled(MAXD, 0.0)
            self.et = _filled(MAXD, 0.0)
            self.tend = _filled(MAXD, 0.0)
            self.pt = _filled(MAXD * MAXD, 0.0)
            self.ek = _filled(MAXD, 0)
            self.ep = _filled(MAXD, 0)
            self.alive = _filled(MAXD, 0)
            self.where = _filled(MAXD, 0)
            self.dirty = _filled(MAXD, 0)
            self.rmt = _filled(MAXD, 0.0)
            self.rmj = _filled(MAXD, 0)
            self.member = _filled(MAXD, 0)
            self.zone = _filled(4, 0)
        self.events: list[Any] = []
        self.segs: list[list[float]] = [[] for _ in range(n)]
        self.px = 0.0
        self.py = 0.0
        self.vx = 0.0
        self.vy = 0.0
        for i in range(n):
            self.x0[i] = xs[i]
            self.y0[i] = ys[i]
            self.r[i] = rs[i]
            self.m[i] = ms[i]
            self.ts[i] = BIG
            self.et[i] = BIG
            self.alive[i] = 1
        for i in range(n):
            self.set_box(i)

    # -- kinematics -------------------------------------------------------------------

    def state_at(self, i: int, t: float) -> None:
        """Position and velocity of disc i at time t into px, py, vx, vy."""
        sp = self.sp[i]
        if sp == 0.0:
            self.px = self.x0[i]
            self.py = self.y0[i]
            self.vx = 0.0
            self.vy = 0.0
            return
        dt = t - self.t0[i]
        s = sp - self.decel * dt
        d = (sp + s) * 0.5 * dt  # distance slid: mean speed times time
        self.px = self.x0[i] + self.ux[i] * d
        self.py = self.y0[i] + self.uy[i] * d
        self.vx = self.ux[i] * s
        self.vy = self.uy[i] * s

    def set_box(self, i: int) -> None:
        """Bounding box of disc i's whole current segment (start to rest)."""
        r = self.r[i]
        x = self.x0[i]
        y = self.y0[i]
        ex = x
        ey = y
        sp = self.sp[i]
        if sp > 0.0:
            d = sp * sp / (2.0 * self.decel)
            ex = x + self.ux[i] * d
            ey = y + self.uy[i] * d
        self.ex[i] = ex
        self.ey[i] = ey
        self.bx0[i] = (x if x < ex else ex) - r
        self.bx1[i] = (x if x > ex else ex) + r
        self.by0[i] = (y if y < ey else ey) - r
        self.by1[i] = (y if y > ey else ey) + r

    def new_segment(self, i: int, t: float, x: float, y: float, vx: float, vy: float) -> None:
        """Start a new segment for disc i at time t (speeds under V_REST mean rest)."""
        sp = sqrt(vx * vx + vy * vy)
        self.t0[i] = t
        self.x0[i] = x
        self.y0[i] = y
        if sp < V_REST:
            sp = 0.0
            vx = 0.0
            vy = 0.0
            self.ux[i] = 0.0
            self.uy[i] = 0.0
            self.ts[i] = BIG
        else:
            self.ux[i] = vx / sp
            self.uy[i] = vy / sp
            self.ts[i] = t + sp / self.decel
        self.sp[i] = sp
        self.set_box(i)
        seg = self.segs[i]
        seg.append(t)
        seg.append(x)
        seg.append(y)
        seg.append(vx)
        seg.append(vy)

    # -- event prediction -------------------------------------------------------------

    def pair_time(self, i: int, j: int, now: float) -> float:
        """Time of the next contact of discs i < j after now, BIG if none."""
        if self.alive[i] == 0 or self.alive[j] == 0:
            return BIG
        if self.sp[i] == 0.0 and self.sp[j] == 0.0:
            return BIG
        # Swept boxes: discs whose remaining paths' boxes are apart cannot meet.
        if (
            self.bx0[i] > self.bx1[j] + CONTACT_EPS
            or self.bx0[j] > self.bx1[i] + CONTACT_EPS
            or self.by0[i] > self.by1[j] + CONTACT_EPS
            or self.by0[j] > self.by1[i] + CONTACT_EPS
        ):
            return BIG
        rr = self.r[i] + self.r[j] + PRUNE_MARGIN
        if (
            seg_dist2(
                self.x0[i],
                self.y0[i],
                self.ex[i],
                self.ey[i],
                self.x0[j],
                self.y0[j],
                self.ex[j],
                self.ey[j],
            )
            > rr * rr
        ):
            return BIG
        self.state_at(i, now)
        dx = self.px
        dy = self.py
        wvx = self.vx
        wvy = self.vy
        self.state_at(j, now)
        dx = dx - self.px
        dy = dy - self.py
        wvx = wvx - self.vx
        wvy = wvy - self.vy
        rr = self.r[i] + self.r[j]
        c0 = dx * dx + dy * dy - rr * rr
        c1 = 2.0 * (dx * wvx + dy * wvy)
        if c0 <= 2.0 * rr * CONTACT_EPS and c1 < -2.0 * rr * V_TOUCH:
            # Touching and closing: resolve at once (Newton's cradle). The margin keeps
            # the sign of the closing speed beyond rounding, so collide() agrees.
            return now
        if self.sp[j] == 0.0:
            return now + line_hit(
                dx,
                dy,
                self.ux[i],
                self.uy[i],
                self.sp[i] - self.decel * (now - self.t0[i]),
                self.decel,
                rr,
            )
        if self.sp[i] == 0.0:
            return now + line_hit(
                -dx,
                -dy,
                self.ux[j],
                self.uy[j],
                self.sp[j] - self.decel * (now - self.t0[j]),
                self.decel,
                rr,
            )
        # Both moving; relative acceleration: each decelerates along its own velocity.
        ax = 0.0
        ay = 0.0
        if self.sp[i] > 0.0:
            ax = -self.decel * self.ux[i]
            ay = -self.decel * self.uy[i]
        if self.sp[j] > 0.0:
            ax = ax + self.decel * self.ux[j]
            ay = ay + self.decel * self.uy[j]
        span = (self.ts[i] if self.ts[i] < self.ts[j] else self.ts[j]) - now
        if span <= 0.0:
            return BIG
        if c1 >= 0.0 and c0 > 0.0:
            # Separating: |D + V t| >= sqrt(|D|^2 + |V|^2 t^2) and the relative
            # acceleration bends the path by at most |A| t^2 / 2. That lower bound of
            # the distance minus R is positive at t = 0 and has no interior minimum,
            # so positive at the window's end means no contact in the window.
            reach = sqrt(dx * dx + dy * dy + (wvx * wvx + wvy * wvy) * span * span)
            bend = 0.5 * sqrt(ax * ax + ay * ay) * span * span
            if reach - bend > rr + PRUNE_MARGIN:
                return BIG
        # |D + V t + A t^2 / 2|^2 - R^2 as a quartic in t.
        c4 = 0.25 * (ax * ax + ay * ay)
        c3 = wvx * ax + wvy * ay
        c2 = wvx * wvx + wvy * wvy + dx * ax + dy * ay
        hit = first_crossing(c4, c3, c2, c1, c0, span)
        if hit >= BIG:
            return BIG
        return now + hit

    def disc_event(self, i: int, now: float) -> None:
        """Next rail, pocket, zone or stop event of disc i after now, into et/ek/ep."""
        self.et[i] = BIG
        if self.alive[i] == 0 or self.sp[i] == 0.0:
            return
        self.state_at(i, now)
        x = self.px
        y = self.py
        vx = self.vx
        vy = self.vy
        r = self.r[i]
        a = self.decel
        ax = a * self.ux[i]  # deceleration components (opposite the velocity)
        ay = a * self.uy[i]
        best = self.ts[i]
        kind = K_STOP
        param = 0
        # Rails: each coordinate moves monotonically until rest.
        if vy < 0.0:
            t = now if y - r <= 0.0 else now + reach_time(y - r, -vy, -ay)
            if t < best:
                best = t
                kind = K_RAIL
                param = 0
        elif vy > 0.0:
            gap = self.size - r - y
            t = now if gap <= 0.0 else now + reach_time(gap, vy, ay)
            if t < best:
                best = t
                kind = K_RAIL
                param = 2
        if vx < 0.0:
            t = now if x - r <= 0.0 else now + reach_time(x - r, -vx, -ax)
            if t < best or (t == best and kind == K_STOP):
                best = t
                kind = K_RAIL
                param = 1
        elif vx > 0.0:
            gap = self.size - r - x
            t = now if gap <= 0.0 else now + reach_time(gap, vx, ax)
            if t < best or (t == best and kind == K_STOP):
                best = t
                kind = K_RAIL
                param = 3
        # Pockets: the centre's straight path enters the hole's circle.
        speed = self.sp[i] - a * (now - self.t0[i])
        prune2 = self.pocket_r2 + PRUNE_MARGIN
        for p in range(4):
            cx = self.pocket_lo if p == 0 or p == 3 else self.pocket_hi
            cy = self.pocket_lo if p < 2 else self.pocket_hi
            dx = x - cx
            dy = y - cy
            c0 = dx * dx + dy * dy - self.pocket_r2
            c1 = 2.0 * (dx * vx + dy * vy)
            if c1 >= 0.0 and c0 > 0.0:
                continue  # moving away from this hole: its distance only grows
            if seg_dist2(x, y, self.ex[i], self.ey[i], cx, cy, cx, cy) > prune2:
                continue  # the rest of its path never comes over the hole
            t = (
                now + line_hit(dx, dy, self.ux[i], self.uy[i], speed, a, self.pocket_r)
                if c0 > 0.0
                else now
            )
            if t < best:
                best = t
                kind = K_POCKET
                param = p
        if i == 0:
            # The striker's hole entirely inside an edge zone or not (zone_limit from rail).
            lim = self.zone_limit
            for side in range(4):
                if side == 0:
                    dist = y
                    vin = -vy
                    ain = -ay
                elif side == 2:
                    dist = self.size - y
                    vin = vy
                    ain = ay
                elif side == 1:
                    dist = x
                    vin = -vx
                    ain = -ax
                else:
                    dist = self.size - x
                    vin = vx
                    ain = ax
                t = BIG
                if self.zone[side] == 1 and vin < 0.0:
                    t = now + reach_time(lim - dist, -vin, -ain) if dist < lim else now
                elif self.zone[side] == 0 and vin > 0.0:
                    t = now + reach_time(dist - lim, vin, ain) if dist > lim else now
                if t < best:
                    best = t
                    kind = K_ZONE
                    param = side
        self.et[i] = best
        self.ek[i] = kind
        self.ep[i] = param

    def refresh(self, i: int, now: float) -> None:
        """Recompute every cached prediction that involves disc i."""
        n = self.n
        self.disc_event(i, now)
        for j in range(i):
            self.set_pair(j, i, self.pair_time(j, i, now))
        for j in range(i + 1, n):
            self.pt[i * MAXD + j] = self.pair_time(i, j, now)
        self.row_min(i)

    def set_pair(self, i: int, j: int, t: float) -> None:
        """Cache the contact time of i < j and keep row i's minimum up to date."""
        self.pt[i * MAXD + j] = t
        if t < self.rmt[i] or (t == self.rmt[i] and j < self.rmj[i]):
            self.rmt[i] = t
            self.rmj[i] = j
        elif self.rmj[i] == j:
            self.row_min(i)  # the row's minimum moved later: find the new one

    def row_min(self, i: int) -> None:
        """The earliest cached contact of disc i with a disc j > i (lowest j on ties):
        the event loop then scans n rows, not n^2 / 2 pairs."""
        best = BIG
        bj = -1
        for j in range(i + 1, self.n):
            t = self.pt[i * MAXD + j]
            if t < best:
                best = t
                bj = j
        self.rmt[i] = best
        self.rmj[i] = bj

    # -- event resolution -------------------------------------------------------------

    def collide(self, i: int, j: int, t: float) -> None:
        """Frictionless impulse between discs i and j along their line of centres."""
        self.state_at(i, t)
        xi = self.px
        yi = self.py
        vxi = self.vx
        vyi = self.vy
        self.state_at(j, t)
        xj = self.px
        yj = self.py
        vxj = self.vx
        vyj = self.vy
        dx = xj - xi
        dy = yj - yi
        dist = sqrt(dx * dx + dy * dy)
        nx = dx / dist
        ny = dy / dist
        closing = (vxi - vxj) * nx + (vyi - vyj) * ny
        mi = self.m[i]
        mj = self.m[j]
        if closing >= V_STICK:
            jimp = (1.0 + self.e_disc) * closing * mi * mj / (mi + mj)
            vxi = vxi - jimp / mi * nx
            vyi = vyi - jimp / mi * ny
            vxj = vxj + jimp / mj * nx
            vyj = vyj + jimp / mj * ny
            self.events.append((K_DISC, t, i, j, closing))
        elif closing > 0.0:
            self.events.append((K_DISC, t, i, j, closing))
            self.stick(i, j, t)
            return
        self.new_segment(i, t, xi, yi, vxi, vyi)
        self.new_segment(j, t, xj, yj, vxj, vyj)
        self.dirty[i] = 1
        self.dirty[j] = 1

    def stick(self, i: int, j: int, t: float) -> None:
        """A gentle contact (closing slower than V_STICK: the tail of a cradle, or the
        discs' friction pressing them together) sticks: the cluster of discs touching
        i and j without separating faster than V_STICK takes its common centre-of-mass
        velocity, less any part of it into a rail that a member touches. The cluster
        then slides on as one, without overlap, and the endless sequence of ever
        smaller contacts a chain would otherwise produce ends. Energy is only lost."""
        n = self.n
        for k in range(n):
            self.member[k] = 0
        self.member[i] = 1
        self.member[j] = 1
        grown = 1
        while grown == 1:
            grown = 0
            for k in range(n):
                if self.member[k] == 0:
                    continue
                for q in range(n):
                    if self.member[q] == 1 or self.alive[q] == 0:
                        continue
                    if self.touching_slowly(k, q, t) == 1:
                        self.member[q] = 1
                        grown = 1
        mass = 0.0
        px = 0.0
        py = 0.0
        for k in range(n):
            if self.member[k] == 1:
                self.state_at(k, t)
                mass = mass + self.m[k]
                px = px + self.m[k] * self.vx
                py = py + self.m[k] * self.vy
        vx = px / mass
        vy = py / mass
        for k in range(n):
            if self.member[k] == 1:
                self.state_at(k, t)
                r = self.r[k]
                if (self.py - r <= CONTACT_EPS and vy < 0.0) or (
                    self.size - r - self.py <= CONTACT_EPS and vy > 0.0
                ):
                    vy = 0.0
                if (self.px - r <= CONTACT_EPS and vx < 0.0) or (
                    self.size - r - self.px <= CONTACT_EPS and vx > 0.0
                ):
                    vx = 0.0
        for k in range(n):
            if self.member[k] == 1:
                self.state_at(k, t)
                self.new_segment(k, t, self.px, self.py, vx, vy)
                self.dirty[k] = 1

    def touching_slowly(self, k: int, q: int, t: float) -> int:
        """1 if discs k and q touch at time t and do not separate faster than V_STICK."""
        self.state_at(k, t)
        dx = self.px
        dy = self.py
        wvx = self.vx
        wvy = self.vy
        self.state_at(q, t)
        dx = self.px - dx
        dy = self.py - dy
        wvx = wvx - self.vx
        wvy = wvy - self.vy
        rr = self.r[k] + self.r[q]
        dist = sqrt(dx * dx + dy * dy)
        if dist > rr + CONTACT_EPS:
            return 0
        # Closing speed of k towards q along their line of centres.
        if (wvx * dx + wvy * dy) / dist > -V_STICK:
            return 1
        return 0

    def rail(self, i: int, side: int, t: float) -> None:
        """Disc i meets rail `side`: bounce, or go over it when faster than jump_speed."""
        self.state_at(i, t)
        x = self.px
        y = self.py
        vx = self.vx
        vy = self.vy
        vn = -vy if side == 0 else (vy if side == 2 else (-vx if side == 1 else vx))
        # A disc that started this segment against the rail (a row puck pressed into it)
        # has no run-up to ride over the rail's edge: it is squeezed and bounces back.
        r = self.r[i]
        if side == 0:
            gap = self.y0[i] - r
        elif side == 2:
            gap = self.size - r - self.y0[i]
        elif side == 1:
            gap = self.x0[i] - r
        else:
            gap = self.size - r - self.x0[i]
        if vn > self.jump_speed and gap > CONTACT_EPS:
            self.events.append((K_OFF, t, i, side, vn))
            self.remove(i, t, WHERE_OFF)
            return
        self.events.append((K_RAIL, t, i, side, vn))
        if side == 0 or side == 2:
            vy = -self.e_rail * vy
        else:
            vx = -self.e_rail * vx
        self.new_segment(i, t, x, y, vx, vy)

    def remove(self, i: int, t: float, where: int) -> None:
        """Disc i leaves play (pocket or off the table) at its position at time t."""
        self.state_at(i, t)
        self.alive[i] = 0
        self.where[i] = where
        self.tend[i] = t
        self.x0[i] = self.px
        self.y0[i] = self.py
        self.t0[i] = t
        self.sp[i] = 0.0
        self.ts[i] = BIG

    def loop(self) -> float:
        """Run events until everything rests; return the time of the last event."""
        n = self.n
        now = 0.0
        for i in range(n):
            self.disc_event(i, now)
        for i in range(n):
            for j in range(i + 1, n):
                self.pt[i * MAXD + j] = self.pair_time(i, j, now)
            self.row_min(i)
        count = 0
        while True:
            # Earliest event; ties: disc-disc first (lowest i, then j), then disc events
            # by kind (rail, pocket, off, zone, stop) and lowest disc.
            best = BIG
            bk = -1
            bi = -1
            bj = -1
            for i in range(n):
                t = self.rmt[i]
                if t < best:
                    best = t
                    bk = K_DISC
                    bi = i
                    bj = self.rmj[i]
            for i in range(n):
                t = self.et[i]
                if t < best or (t == best and t < BIG and self.ek[i] < bk):
                    best = t
                    bk = self.ek[i]
                    bi = i
            if bk < 0:
                return now
            count += 1
            if count > MAX_EVENTS:
                self.halt(best)
                return best
            now = best
            if bk == K_DISC:
                self.collide(bi, bj, now)
                for i in range(n):
                    if self.dirty[i] == 1:
                        self.dirty[i] = 0
                        self.refresh(i, now)
            elif bk == K_RAIL:
                self.rail(bi, self.ep[bi], now)
                self.refresh(bi, now)
            elif bk == K_POCKET:
                self.events.append((K_POCKET, now, bi, self.ep[bi], 0.0))
                self.remove(bi, now, WHERE_POCKET)
                self.refresh(bi, now)
            elif bk == K_ZONE:
                side = self.ep[bi]
                self.zone[side] = 1 - self.zone[side]
                self.events.append((K_ZONE, now, side, self.zone[side], 0.0))
                self.disc_event(bi, now)
            else:
                self.state_at(bi, now)
                self.new_segment(bi, now, self.px, self.py, 0.0, 0.0)
                self.refresh(bi, now)

    def halt(self, t: float) -> None:
        """Safety stop: put every moving disc at rest where it is at time t."""
        for i in range(self.n):
            if self.alive[i] == 1 and self.sp[i] > 0.0:
                self.state_at(i, t)
                self.new_segment(i, t, self.px, self.py, 0.0, 0.0)


def check_placement(
    params: tuple[Any, ...], xs: list[float], ys: list[float], rs: list[float], tol: float
) -> tuple[int, int, int]:
    """(problem, i, j) for the first disc off the table or not at a finite place (1),
    over a hole (2) or overlapping disc j (3), each beyond tol mm; (0, -1, -1) when
    every placement is sound."""
    n = len(xs)
    size = params[0]
    lo = params[5]
    hi = size - lo
    hole2 = params[6] * params[6]
    for i in range(n):
        x = xs[i]
        y = ys[i]
        r = rs[i]
        if not (r - tol <= x <= size - r + tol and r - tol <= y <= size - r + tol):
            return (1, i, -1)  # also NaN, which fails every comparison
        for p in range(4):
            dx = x - (lo if p == 0 or p == 3 else hi)
            dy = y - (lo if p < 2 else hi)
            if dx * dx + dy * dy <= hole2:
                return (2, i, -1)
    for i in range(n):
        for j in range(i + 1, n):
            dx = xs[i] - xs[j]
            dy = ys[i] - ys[j]
            reach = rs[i] + rs[j] - tol
            if dx * dx + dy * dy < reach * reach:
                return (3, i, j)
    return (0, -1, -1)


def run(
    params: tuple[Any, ...],
    xs: list[float],
    ys: list[float],
    rs: list[float],
    ms: list[float],
    vx: float,
    vy: float,
) -> tuple[Any, ...]:
    """Simulate one stroke: disc 0 (the striker) starts at speed (vx, vy), all else rests.

    params = (size, decel, e_disc, e_rail, jump_speed, pocket_inset, pocket_radius,
    zone_limit). Returns (events, segments, where, tend, finals, duration): the raw event
    tuples in order; per disc a flat list of segments (t0, x0, y0, vx, vy); per disc
    WHERE_*, the time it left play, and its final (x, y); the time of the last event.
    """
    sim = Sim(
        params[0],
        params[1],
        params[2],
        params[3],
        params[4],
        params[5],
        params[6],
        params[7],
        xs,
        ys,
        rs,
        ms,
    )
    n = sim.n
    for i in range(n):
        sim.new_segment(i, 0.0, xs[i], ys[i], 0.0, 0.0)
    lim = params[7]
    size = params[0]
    # Zone flags at placement (not logged: the caller knows where it placed the striker).
    sim.zone[0] = 1 if ys[0] <= lim else 0
    sim.zone[1] = 1 if xs[0] <= lim else 0
    sim.zone[2] = 1 if size - ys[0] <= lim else 0
    sim.zone[3] = 1 if size - xs[0] <= lim else 0
    sim.segs[0] = []
    sim.new_segment(0, 0.0, xs[0], ys[0], vx, vy)
    duration = sim.loop()
    finals = []
    for i in range(n):
        sim.state_at(i, duration)
        finals.append((sim.px, sim.py))
    where = [sim.where[i] for i in range(n)]
    tend = [sim.tend[i] for i in range(n)]
    return (sim.events, sim.segs, where, tend, finals, duration)
