# C types for server/games/core/collision.py (Cython pure-Python mode: this file augments the .py).
cimport cython
from libc.math cimport sqrt

cdef int K_DISC, K_RAIL, K_POCKET, K_OFF, K_ZONE, K_STOP
cdef int WHERE_TABLE, WHERE_POCKET, WHERE_OFF
cdef double CRIT_TOL, PRUNE_MARGIN, BIG, CONTACT_EPS, V_REST, V_STICK, V_TOUCH, T_TOL
cdef int MAX_EVENTS, MAXD

cdef double _quartic(double c4, double c3, double c2, double c1, double c0, double t) noexcept
cdef double _cubic(double d3, double d2, double d1, double d0, double t) noexcept

@cython.locals(flo=double, fhi=double, neg=bint, x=double, fx=double, dfx=double, nx=double)
cdef double _cubic_root(double d3, double d2, double d1, double d0, double lo, double hi) noexcept

@cython.locals(lo=double, hi=double, x=double, fx=double, dfx=double, nx=double)
cdef double _descent(double c4, double c3, double c2, double c1, double c0, double a, double b) noexcept

@cython.locals(q2=double, q1=double, q0=double, s1=double, s2=double, disc=double, sq=double,
               qq=double, r1=double, r2=double, d3=double, d2=double, d1=double, d0=double,
               a=double, c=double, hit=double)
cpdef double first_crossing(double c4, double c3, double c2, double c1, double c0, double span) noexcept

@cython.locals(ux=double, uy=double, vx=double, vy=double, wx=double, wy=double, a=double,
               e=double, f=double, s=double, t=double, c=double, b=double, denom=double,
               px=double, py=double)
cpdef double seg_dist2(double ax, double ay, double bx, double by, double cx, double cy,
                       double dx, double dy) noexcept

cdef double _clamp01(double v) noexcept

@cython.locals(disc=double)
cpdef double reach_time(double gap, double v, double acc) noexcept

@cython.locals(b=double, c=double, disc=double)
cpdef double line_hit(double dx, double dy, double ux, double uy, double v, double acc,
                      double rr) noexcept


@cython.final
cdef class Sim:
    cdef int n
    cdef double size, decel, e_disc, e_rail, jump_speed, pocket_lo, pocket_hi, pocket_r, pocket_r2
    cdef double zone_limit
    # Sized MAXD = 40 discs (core.py), the pair table MAXD * MAXD.
    cdef double t0[40], x0[40], y0[40], ux[40], uy[40], sp[40], ts[40], r[40], m[40]
    cdef double bx0[40], bx1[40], by0[40], by1[40], ex[40], ey[40], et[40], tend[40], rmt[40]
    cdef double pt[1600]
    cdef int ek[40], ep[40], alive[40], where[40], dirty[40], member[40], rmj[40], zone[4]
    cdef list events, segs
    cdef double px, py, vx, vy

    @cython.locals(sp=double, dt=double, s=double, d=double)
    cdef void state_at(self, int i, double t) noexcept

    @cython.locals(r=double, x=double, y=double, ex=double, ey=double, sp=double, d=double)
    cdef void set_box(self, int i) noexcept

    @cython.locals(sp=double, seg=list)
    cdef void new_segment(self, int i, double t, double x, double y, double vx, double vy)

    @cython.locals(dx=double, dy=double, wvx=double, wvy=double, rr=double, c0=double,
                   c1=double, c2=double, c3=double, c4=double, ax=double, ay=double,
                   span=double, hit=double, reach=double, bend=double)
    cdef double pair_time(self, int i, int j, double now) noexcept

    @cython.locals(x=double, y=double, vx=double, vy=double, r=double, a=double, ax=double,
                   ay=double, best=double, kind=int, param=int, t=double, gap=double,
                   c4=double, c3=double, c2=double, c1=double, c0=double,
                   p=int, cx=double, cy=double, dx=double, dy=double, lim=double, side=int,
                   dist=double, vin=double, ain=double, prune2=double, speed=double)
    cdef void disc_event(self, int i, double now) noexcept

    @cython.locals(n=int, j=int)
    cdef void refresh(self, int i, double now) noexcept

    cdef void set_pair(self, int i, int j, double t) noexcept

    @cython.locals(best=double, bj=int, j=int, t=double)
    cdef void row_min(self, int i) noexcept

    @cython.locals(xi=double, yi=double, vxi=double, vyi=double, xj=double, yj=double,
                   vxj=double, vyj=double, dx=double, dy=double, dist=double, nx=double,
                   ny=double, closing=double, mi=double, mj=double, jimp=double)
    cdef void collide(self, int i, int j, double t)

    @cython.locals(n=int, k=int, q=int, grown=int, mass=double, px=double, py=double,
                   vx=double, vy=double, r=double)
    cdef void stick(self, int i, int j, double t)

    @cython.locals(dx=double, dy=double, wvx=double, wvy=double, rr=double, dist=double)
    cdef int touching_slowly(self, int k, int q, double t) noexcept

    @cython.locals(x=double, y=double, vx=double, vy=double, vn=double, r=double, gap=double)
    cdef void rail(self, int i, int side, double t)

    cdef void remove(self, int i, double t, int where) noexcept

    @cython.locals(n=int, now=double, i=int, j=int, count=int, best=double, bk=int, bi=int,
                   bj=int, t=double, side=int)
    cpdef double loop(self)

    @cython.locals(i=int)
    cdef void halt(self, double t)


@cython.locals(sim=Sim, n=int, i=int, lim=double, size=double, duration=double, where=list,
               tend=list)
cpdef tuple run(tuple params, list xs, list ys, list rs, list ms, double vx, double vy)


@cython.locals(n=int, i=int, j=int, p=int, size=double, lo=double, hi=double, hole2=double,
               x=double, y=double, r=double, dx=double, dy=double, reach=double)
cpdef tuple check_placement(tuple params, list xs, list ys, list rs, double tol)
