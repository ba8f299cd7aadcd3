// RUN: tle-opt %s -split-input-file -tle-lower-pipes -verify-diagnostics

// Producer and consumer are one role: a loop that commits and never reads
// fills the ring after `capacity` slots and then waits forever.
tle.func @fills_up(%v: f32, %n: i32) {
  %p = tle.pipe.create "tiles" : !tle.pipe<2, [f32]>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %k = %c0 to %n step %c1 : i32 {
    tle.pipe.writer_acquire %p : !tle.pipe<2, [f32]>
    // expected-error @+1 {{pipe 'tiles' (capacity 2): each iteration of this loop in kernel 'fills_up' commits more slots than it releases, so after 2 slots writer_acquire() would wait forever (producer and consumer are one role); read and release in the same loop, or loop a constant number of times that fits the capacity}}
    tle.pipe.writer_commit %p, %v : !tle.pipe<2, [f32]>, f32
  }
  tle.return
}

// -----

// A known trip count beyond the capacity: the third acquire cannot succeed.
tle.func @too_many(%v: f32) {
  %p = tle.pipe.create "tiles" : !tle.pipe<2, [f32]>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  scf.for %k = %c0 to %c3 step %c1 : i32 {
    // expected-error @+1 {{pipe 'tiles' (capacity 2): writer_acquire() would wait forever in kernel 'too_many': all 2 slots are committed and not released, and producer and consumer are one role; read and release a slot first (reader_wait()/reader_release()), or raise the capacity}}
    tle.pipe.writer_acquire %p : !tle.pipe<2, [f32]>
    tle.pipe.writer_commit %p, %v : !tle.pipe<2, [f32]>, f32
  }
  tle.return
}

// -----

// A read before anything is committed, on a pipe still open.
tle.func @read_first(%v: f32, %out: !tle.ptr<f32>) {
  %p = tle.pipe.create "tiles" : !tle.pipe<2, [f32]>
  // expected-error @+1 {{pipe 'tiles' (capacity 2): reader_wait() would wait forever in kernel 'read_first': no slot is committed and not yet read here, the pipe is not closed, and producer and consumer are one role; commit before reading, or writer_close() the pipe}}
  %valid, %x = tle.pipe.reader_wait %p : !tle.pipe<2, [f32]> -> f32
  tle.store %out, %x : !tle.ptr<f32>
  tle.pipe.reader_release %p : !tle.pipe<2, [f32]>
  tle.pipe.writer_acquire %p : !tle.pipe<2, [f32]>
  tle.pipe.writer_commit %p, %v : !tle.pipe<2, [f32]>, f32
  tle.return
}

// -----

// A loop that reads more than it commits drains the pipe, then waits.
tle.func @drains(%v: f32, %n: i32, %out: !tle.ptr<f32>) {
  %p = tle.pipe.create "tiles" : !tle.pipe<2, [f32]>
  tle.pipe.writer_acquire %p : !tle.pipe<2, [f32]>
  tle.pipe.writer_commit %p, %v : !tle.pipe<2, [f32]>, f32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %k = %c0 to %n step %c1 : i32 {
    // expected-error @+1 {{pipe 'tiles' (capacity 2): each iteration of this loop in kernel 'drains' waits on more slots than it commits, so reader_wait() would wait forever once the committed slots are read (producer and consumer are one role); commit in the same loop, or writer_close() the pipe first}}
    %valid, %x = tle.pipe.reader_wait %p : !tle.pipe<2, [f32]> -> f32
    tle.store %out, %x : !tle.ptr<f32>
    tle.pipe.reader_release %p : !tle.pipe<2, [f32]>
  }
  tle.return
}

// -----

// Closed first, the same loop is fine: waits past the end report !valid.
tle.func @drains_closed(%v: f32, %n: i32, %out: !tle.ptr<f32>) {
  %p = tle.pipe.create "tiles" : !tle.pipe<2, [f32]>
  tle.pipe.writer_acquire %p : !tle.pipe<2, [f32]>
  tle.pipe.writer_commit %p, %v : !tle.pipe<2, [f32]>, f32
  tle.pipe.writer_close %p : !tle.pipe<2, [f32]>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %k = %c0 to %n step %c1 : i32 {
    %valid, %x = tle.pipe.reader_wait %p : !tle.pipe<2, [f32]> -> f32
    tle.store %out, %x : !tle.ptr<f32>
    tle.pipe.reader_release %p : !tle.pipe<2, [f32]>
  }
  tle.return
}

// -----

// A pipe between two roles must have each role in one partition of the
// same warp_specialize: here the reader is a partition, the writer is not.
tle.func @partition_and_outside(%v: f32, %out: !tle.ptr<f32>) {
  // expected-error @+1 {{pipe 'tiles': its writer and reader run in different places; between two roles, both must be partitions of the same warp_specialize}}
  %p = tle.pipe.create "tiles" : !tle.pipe<2, [f32]>
  tle.pipe.writer_commit %p, %v : !tle.pipe<2, [f32]>, f32
  tle_struct.warp_specialize [4, 1] {
    %valid, %x = tle.pipe.reader_wait %p : !tle.pipe<2, [f32]> -> f32
    tle.store %out, %x : !tle.ptr<f32>
    tle_struct.yield
  }, {
    tle_struct.yield
  }
  tle.return
}

// -----

tle.func @writer_in_two_partitions(%v: f32, %out: !tle.ptr<f32>) {
  %p = tle.pipe.create "tiles" : !tle.pipe<2, [f32]>
  tle_struct.warp_specialize [4, 1, 1] {
    %valid, %x = tle.pipe.reader_wait %p : !tle.pipe<2, [f32]> -> f32
    tle.store %out, %x : !tle.ptr<f32>
    tle_struct.yield
  }, {
    tle.pipe.writer_commit %p, %v : !tle.pipe<2, [f32]>, f32
    tle_struct.yield
  }, {
    // expected-error @+1 {{pipe 'tiles': its writer methods are in different warp_specialize partitions (or inside and outside one); each role is one partition}}
    tle.pipe.writer_commit %p, %v : !tle.pipe<2, [f32]>, f32
    tle_struct.yield
  }
  tle.return
}

// -----

// The writer partition acquires slots but never fills one: the reader
// partition would wait forever.
tle.func @writer_never_commits(%out: !tle.ptr<f32>) {
  // expected-error @+1 {{pipe 'tiles': the reader partition waits, but the writer partition never commits or closes it; the reader would wait forever}}
  %p = tle.pipe.create "tiles" : !tle.pipe<2, [f32]>
  tle_struct.warp_specialize [4, 1] {
    %valid, %x = tle.pipe.reader_wait %p : !tle.pipe<2, [f32]> -> f32
    tle.store %out, %x : !tle.ptr<f32>
    tle_struct.yield
  }, {
    tle.pipe.writer_acquire %p : !tle.pipe<2, [f32]>
    tle_struct.yield
  }
  tle.return
}

// -----

// The pipe's barriers start where it is created: a warp_specialize in a
// loop around which the roles' counters would restart is refused.
tle.func @roles_in_loop(%v: f32, %out: !tle.ptr<f32>, %n: i32) {
  %p = tle.pipe.create "tiles" : !tle.pipe<2, [f32]>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %k = %c0 to %n step %c1 : i32 {
    // expected-error @+1 {{pipe 'tiles' connects two partitions of this warp_specialize, which must then be in the same block as the pipe's creation (not inside a loop or if that the creation is outside of)}}
    tle_struct.warp_specialize [4, 1] {
      %valid, %x = tle.pipe.reader_wait %p : !tle.pipe<2, [f32]> -> f32
      tle.store %out, %x : !tle.ptr<f32>
      tle.pipe.reader_release %p : !tle.pipe<2, [f32]>
      tle_struct.yield
    }, {
      tle.pipe.writer_commit %p, %v : !tle.pipe<2, [f32]>, f32
      tle_struct.yield
    }
  }
  tle.return
}

// -----

// One role inside one partition keeps the one-role checks.
tle.func @one_role_in_partition(%v: f32, %n: i32) {
  %p = tle.pipe.create "tiles" : !tle.pipe<2, [f32]>
  tle_struct.warp_specialize [4, 1] {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %k = %c0 to %n step %c1 : i32 {
      tle.pipe.writer_acquire %p : !tle.pipe<2, [f32]>
      // expected-error @+1 {{pipe 'tiles' (capacity 2): each iteration of this loop in kernel 'one_role_in_partition' commits more slots than it releases}}
      tle.pipe.writer_commit %p, %v : !tle.pipe<2, [f32]>, f32
    }
    tle_struct.yield
  }, {
    tle_struct.yield
  }
  tle.return
}

// -----

tle.func @two_readers(%v: f32) {
  // expected-error @+1 {{pipe 'tiles' has 2 readers; pipes with more than one reader role are not lowered yet}}
  %p = tle.pipe.create "tiles" {readers = 2 : i32} : !tle.pipe<2, [f32]>
  tle.pipe.writer_commit %p, %v : !tle.pipe<2, [f32]>, f32
  tle.return
}

// -----

tle.func @pointer_field(%v: !tle.ptr<f32>) {
  // expected-error @+1 {{pipe 'ptrs': field 0 ('!tle.ptr<f32>') cannot be kept in local memory; pipes carry integers and floats (pass pointers as offsets)}}
  %p = tle.pipe.create "ptrs" : !tle.pipe<1, [!tle.ptr<f32>]>
  tle.pipe.writer_commit %p, %v : !tle.pipe<1, [!tle.ptr<f32>]>, !tle.ptr<f32>
  tle.return
}
