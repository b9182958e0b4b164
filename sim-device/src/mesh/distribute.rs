//! TTNN-style distribution of host tensors over a mesh: shard along a tensor dimension, replicate, or one
//! placement per mesh dimension (`MeshMapperConfig`); and the composers that concatenate the pieces back.
//! Tensors are row-major `(shape, data)`.

use super::MeshShape;
use crate::error::DeviceError;

/// What a mesh dimension does with the tensor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// Every device along the mesh dimension gets the same data.
    Replicate,
    /// The tensor dimension is cut into equal pieces along the mesh dimension.
    Shard(usize),
}

/// Cut `data` (of `shape`) into `n` equal pieces along `dim`: each piece's shape and data.
pub fn split<T: Copy>(
    shape: &[usize],
    data: &[T],
    dim: usize,
    n: usize,
) -> Result<(Vec<usize>, Vec<Vec<T>>), DeviceError> {
    if dim >= shape.len() {
        return Err(DeviceError::Api(format!("shard dimension {dim}: the tensor has {} dimensions", shape.len())));
    }
    if n == 0 || !shape[dim].is_multiple_of(n) {
        return Err(DeviceError::Api(format!(
            "shard dimension {dim} of extent {} into {n} equal pieces: the extent must divide evenly",
            shape[dim]
        )));
    }
    if shape.iter().product::<usize>() != data.len() {
        return Err(DeviceError::Api(format!("tensor of shape {shape:?} given {} values", data.len())));
    }
    let outer: usize = shape[..dim].iter().product();
    let inner: usize = shape[dim + 1..].iter().product();
    let piece = shape[dim] / n;
    let mut pshape = shape.to_vec();
    pshape[dim] = piece;
    let pieces = (0..n)
        .map(|k| {
            let mut v = Vec::with_capacity(outer * piece * inner);
            for o in 0..outer {
                let start = (o * shape[dim] + k * piece) * inner;
                v.extend_from_slice(&data[start..start + piece * inner]);
            }
            v
        })
        .collect();
    Ok((pshape, pieces))
}

/// Concatenate equal pieces of `piece_shape` along `dim` (the inverse of [`split`]).
pub fn concat<T: Copy>(
    piece_shape: &[usize],
    pieces: &[Vec<T>],
    dim: usize,
) -> Result<(Vec<usize>, Vec<T>), DeviceError> {
    if dim >= piece_shape.len() {
        return Err(DeviceError::Api(format!(
            "concat dimension {dim}: the pieces have {} dimensions",
            piece_shape.len()
        )));
    }
    let vol: usize = piece_shape.iter().product();
    if let Some(k) = pieces.iter().position(|p| p.len() != vol) {
        return Err(DeviceError::Api(format!("piece {k} has {} values, not {vol}", pieces[k].len())));
    }
    let outer: usize = piece_shape[..dim].iter().product();
    let chunk: usize = piece_shape[dim..].iter().product();
    let mut out = Vec::with_capacity(vol * pieces.len());
    for o in 0..outer {
        for p in pieces {
            out.extend_from_slice(&p[o * chunk..(o + 1) * chunk]);
        }
    }
    let mut shape = piece_shape.to_vec();
    shape[dim] *= pieces.len();
    Ok((shape, out))
}

/// `shard_tensor_to_mesh_mapper(mesh, dim)`: the mesh viewed as a line, `dim` cut into one piece per device
/// in row-major order.
pub fn shard_to_mesh<T: Copy>(
    mesh: MeshShape,
    shape: &[usize],
    data: &[T],
    dim: usize,
) -> Result<(Vec<usize>, Vec<Vec<T>>), DeviceError> {
    split(shape, data, dim, mesh.mesh_size())
}

/// `replicate_tensor_to_mesh_mapper(mesh)`.
pub fn replicate_to_mesh<T: Copy>(mesh: MeshShape, data: &[T]) -> Vec<Vec<T>> {
    vec![data.to_vec(); mesh.mesh_size()]
}

/// `create_mesh_mapper(mesh, MeshMapperConfig{placements: [rows, cols]})`: one piece per device,
/// row-major.
pub fn map_2d<T: Copy>(
    mesh: MeshShape,
    shape: &[usize],
    data: &[T],
    placements: [Placement; 2],
) -> Result<(Vec<usize>, Vec<Vec<T>>), DeviceError> {
    let (rshape, rows) = match placements[0] {
        Placement::Replicate => (shape.to_vec(), vec![data.to_vec(); mesh.rows as usize]),
        Placement::Shard(d) => split(shape, data, d, mesh.rows as usize)?,
    };
    let mut out = Vec::with_capacity(mesh.mesh_size());
    let mut pshape = rshape.clone();
    for row in &rows {
        let (s, cols) = match placements[1] {
            Placement::Replicate => (rshape.clone(), vec![row.clone(); mesh.cols as usize]),
            Placement::Shard(d) => split(&rshape, row, d, mesh.cols as usize)?,
        };
        pshape = s;
        out.extend(cols);
    }
    Ok((pshape, out))
}

/// `create_mesh_composer(mesh, MeshComposerConfig{dims: [d0, d1]})`: the pieces of each mesh row
/// concatenated along `dims[1]`, then the rows along `dims[0]`.
pub fn compose_2d<T: Copy>(
    mesh: MeshShape,
    piece_shape: &[usize],
    pieces: &[Vec<T>],
    dims: [usize; 2],
) -> Result<(Vec<usize>, Vec<T>), DeviceError> {
    if pieces.len() != mesh.mesh_size() {
        return Err(DeviceError::Api(format!("{} pieces for a {mesh} mesh", pieces.len())));
    }
    let mut rows = Vec::new();
    let mut rshape = piece_shape.to_vec();
    for r in 0..mesh.rows as usize {
        let (s, v) = concat(piece_shape, &pieces[r * mesh.cols as usize..(r + 1) * mesh.cols as usize], dims[1])?;
        rshape = s;
        rows.push(v);
    }
    concat(&rshape, &rows, dims[0])
}
