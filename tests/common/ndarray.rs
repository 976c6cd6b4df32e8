//! A naive reference for movement ops: materialise the index array and move it,
//! as NumPy would. `-1` marks padding.
#![allow(dead_code, unreachable_pub)]

#[derive(Clone, Debug, PartialEq)]
pub struct NdArray {
    pub shape: Vec<i64>,
    pub data: Vec<i64>,
}

fn unravel(mut i: i64, shape: &[i64]) -> Vec<i64> {
    let mut c = vec![0; shape.len()];
    for (x, &s) in c.iter_mut().zip(shape).rev() {
        *x = i % s;
        i /= s;
    }
    c
}

fn ravel(c: &[i64], shape: &[i64]) -> i64 {
    c.iter().zip(shape).fold(0, |acc, (&x, &s)| acc * s + x)
}

impl NdArray {
    /// The reference's result of one movement op.
    pub fn apply(&self, op: &hlayout::Movement) -> NdArray {
        use hlayout::Movement as M;
        match op {
            M::Reshape(s) => self.reshape(s),
            M::Permute(p) => self.permute(p),
            M::Expand(s) => self.expand(s),
            M::Pad(a) => self.pad(a),
            M::Shrink(a) => self.shrink(a),
            M::Flip(f) => self.flip(f),
        }
    }

    pub fn arange(shape: &[i64]) -> NdArray {
        let n: i64 = shape.iter().product();
        NdArray {
            shape: shape.to_vec(),
            data: (0..n).collect(),
        }
    }

    fn build(shape: Vec<i64>, f: impl Fn(&[i64]) -> i64) -> NdArray {
        let n: i64 = shape.iter().product();
        let data = (0..n).map(|i| f(&unravel(i, &shape))).collect();
        NdArray { shape, data }
    }

    fn at(&self, c: &[i64]) -> i64 {
        self.data[ravel(c, &self.shape) as usize]
    }

    pub fn reshape(&self, shape: &[i64]) -> NdArray {
        NdArray {
            shape: shape.to_vec(),
            data: self.data.clone(),
        }
    }

    pub fn permute(&self, perm: &[usize]) -> NdArray {
        let shape = perm.iter().map(|&p| self.shape[p]).collect();
        NdArray::build(shape, |c| {
            let mut src = vec![0; c.len()];
            for (k, &p) in perm.iter().enumerate() {
                src[p] = c[k];
            }
            self.at(&src)
        })
    }

    pub fn expand(&self, shape: &[i64]) -> NdArray {
        NdArray::build(shape.to_vec(), |c| {
            let src: Vec<i64> = c
                .iter()
                .zip(&self.shape)
                .map(|(&x, &s)| if s == 1 { 0 } else { x })
                .collect();
            self.at(&src)
        })
    }

    pub fn pad(&self, arg: &[(i64, i64)]) -> NdArray {
        let shape = self
            .shape
            .iter()
            .zip(arg)
            .map(|(s, (b, a))| s + b + a)
            .collect();
        NdArray::build(shape, |c| {
            let src: Vec<i64> = c.iter().zip(arg).map(|(&x, &(b, _))| x - b).collect();
            if src.iter().zip(&self.shape).all(|(&x, &s)| 0 <= x && x < s) {
                self.at(&src)
            } else {
                -1
            }
        })
    }

    pub fn shrink(&self, arg: &[(i64, i64)]) -> NdArray {
        let shape = arg.iter().map(|(b, e)| e - b).collect();
        NdArray::build(shape, |c| {
            let src: Vec<i64> = c.iter().zip(arg).map(|(&x, &(b, _))| x + b).collect();
            self.at(&src)
        })
    }

    pub fn flip(&self, flags: &[bool]) -> NdArray {
        NdArray::build(self.shape.clone(), |c| {
            let src: Vec<i64> = c
                .iter()
                .zip(&self.shape)
                .zip(flags)
                .map(|((&x, &s), &f)| if f { s - 1 - x } else { x })
                .collect();
            self.at(&src)
        })
    }

    /// `x[::step]` per dimension; negative steps walk from the end.
    pub fn stride(&self, steps: &[i64]) -> NdArray {
        let shape = self
            .shape
            .iter()
            .zip(steps)
            .map(|(&s, &k)| (s + k.abs() - 1) / k.abs())
            .collect();
        NdArray::build(shape, |c| {
            let src: Vec<i64> = c
                .iter()
                .zip(&self.shape)
                .zip(steps)
                .map(|((&x, &s), &k)| if k > 0 { x * k } else { s - 1 + x * k })
                .collect();
            self.at(&src)
        })
    }
}
