//! The 2-D fabric from a worker kernel (tt-metal's `tt::tt_fabric::mesh::experimental` API, which needs
//! `FABRIC_2D`): the same connection and packets as the 1-D API, but a packet names its destination device
//! (`dst_dev_id`, the device's row-major index in the mesh, and `dst_mesh_id`) instead of a hop count.
//! Routers forward it dimension-ordered — along the row (X) until the column matches, then along the
//! column (Y) — and the destination executes its NoC command. The connection must be to the router facing
//! the route's first hop. tt-metal's C++ calls share names across the 1-D and 2-D namespaces;
//! here the 2-D calls carry a `fabric_mesh_` prefix.
//!
//! Not modelled: 2-D multicast (`MeshMcastRange`), several meshes (a `dst_mesh_id` other than 0 is an
//! error), tori.

use super::Dataflow;
use super::fabric::{FabricCmd, FabricConnection, FabricRoute};

impl Dataflow<'_> {
    fn mesh_route(&self, api: &str, dst_dev_id: u8, dst_mesh_id: u16) -> FabricRoute {
        if dst_mesh_id != 0 {
            self.ctx.fail(format!(
                "{api}: dst_mesh_id {dst_mesh_id}: tensim's fabric spans one mesh (id 0); several meshes are not modelled"
            ));
        }
        FabricRoute::Mesh { dst_dev_id, dst_mesh_id }
    }

    /// `mesh::experimental::fabric_unicast_noc_unicast_write(conn, hdr, dst_dev_id, dst_mesh_id, src, size, {dst_noc_addr})`.
    #[allow(clippy::too_many_arguments)]
    pub fn fabric_mesh_unicast_noc_unicast_write(
        &mut self,
        c: &mut FabricConnection,
        hdr: u32,
        dst_dev_id: u8,
        dst_mesh_id: u16,
        src: u32,
        size: u32,
        dst_noc_addr: u64,
    ) {
        let api = "fabric_mesh_unicast_noc_unicast_write";
        let route = self.mesh_route(api, dst_dev_id, dst_mesh_id);
        self.fabric_send_routed(api, c, hdr, src, size, FabricCmd::Write { dst: dst_noc_addr }, route);
    }

    /// `mesh::experimental::fabric_unicast_noc_unicast_atomic_inc(conn, hdr, dst_dev_id, dst_mesh_id, {sem_noc_addr, val})`.
    pub fn fabric_mesh_unicast_noc_unicast_atomic_inc(
        &mut self,
        c: &mut FabricConnection,
        hdr: u32,
        dst_dev_id: u8,
        dst_mesh_id: u16,
        sem_noc_addr: u64,
        val: u32,
    ) {
        let api = "fabric_mesh_unicast_noc_unicast_atomic_inc";
        let route = self.mesh_route(api, dst_dev_id, dst_mesh_id);
        self.fabric_send_routed(api, c, hdr, 0, 0, FabricCmd::AtomicInc { sem: sem_noc_addr, val }, route);
    }

    /// `mesh::experimental::fabric_unicast_noc_fused_unicast_with_atomic_inc(conn, hdr, dst_dev_id, dst_mesh_id,
    /// src, size, {dst_noc_addr, sem_noc_addr, val})`.
    #[allow(clippy::too_many_arguments)]
    pub fn fabric_mesh_unicast_noc_fused_unicast_with_atomic_inc(
        &mut self,
        c: &mut FabricConnection,
        hdr: u32,
        dst_dev_id: u8,
        dst_mesh_id: u16,
        src: u32,
        size: u32,
        dst_noc_addr: u64,
        sem_noc_addr: u64,
        val: u32,
    ) {
        let api = "fabric_mesh_unicast_noc_fused_unicast_with_atomic_inc";
        let route = self.mesh_route(api, dst_dev_id, dst_mesh_id);
        let cmd = FabricCmd::FusedWriteInc { dst: dst_noc_addr, sem: sem_noc_addr, val };
        self.fabric_send_routed(api, c, hdr, src, size, cmd, route);
    }
}
